package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// toolSource returns the Go source in dir (cmd/everything) that defines the
// tool called name, and the base name of its file, as a reader would write it: the tool.New call naming it,
// after the declaration of its argument type when the handler is typed, or
// the tool.Tool literal naming it. It is read from the files each run, so
// what the demo shows cannot drift from what it runs.
func toolSource(dir, name string) (src, file string, err error) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return "", "", err
	}
	var (
		found   ast.Node
		foundIn []byte
		inFile  string
		types   = map[string]ast.Node{} // type declarations, by name
		texts   = map[ast.Node][]byte{} // the file text of each type declaration
	)
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return "", "", err
		}
		f, err := parser.ParseFile(fset, path, text, parser.ParseComments)
		if err != nil {
			return "", "", err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				if n.Tok == token.TYPE && len(n.Specs) == 1 {
					ts := n.Specs[0].(*ast.TypeSpec)
					types[ts.Name.Name] = n
					texts[n] = text
				}
			case *ast.CallExpr:
				if found == nil && isToolNew(n) && len(n.Args) > 0 && stringLit(n.Args[0]) == name {
					found, foundIn, inFile = n, text, filepath.Base(path)
				}
			case *ast.CompositeLit:
				if found == nil && namesTool(n, name) {
					found, foundIn, inFile = n, text, filepath.Base(path)
				}
			}
			return true
		})
	}
	if found == nil {
		return "", "", fmt.Errorf("no tool.New(%q, ...) or tool.Tool{Name: %q} in %s", name, name, filepath.Base(dir))
	}
	src = nodeText(fset, foundIn, found)
	if arg := argType(found); arg != "" {
		if decl, ok := types[arg]; ok {
			src = nodeText(fset, texts[decl], decl) + "\n\n" + src
		}
	}
	return src, inFile, nil
}

// isToolNew reports whether call is tool.New(...).
func isToolNew(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "tool" && sel.Sel.Name == "New"
}

// namesTool reports whether lit is a composite literal with Name: name.
func namesTool(lit *ast.CompositeLit, name string) bool {
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if key, ok := kv.Key.(*ast.Ident); ok && key.Name == "Name" && stringLit(kv.Value) == name {
			return true
		}
	}
	return false
}

// stringLit is the value of e when it is a string literal, else "".
func stringLit(e ast.Expr) string {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return ""
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil {
		return ""
	}
	return s
}

// argType is the name of the typed handler's argument type of a tool.New
// call (its second parameter's type), or "".
func argType(n ast.Node) string {
	call, ok := n.(*ast.CallExpr)
	if !ok || len(call.Args) < 3 {
		return ""
	}
	fn, ok := call.Args[2].(*ast.FuncLit)
	if !ok || len(fn.Type.Params.List) < 2 {
		return ""
	}
	if id, ok := fn.Type.Params.List[1].Type.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// nodeText is n's text in the file text, with the indentation of the line
// it starts on taken off every line.
func nodeText(fset *token.FileSet, text []byte, n ast.Node) string {
	start, end := fset.Position(n.Pos()).Offset, fset.Position(n.End()).Offset
	lineStart := start
	for lineStart > 0 && text[lineStart-1] != '\n' {
		lineStart--
	}
	indent := string(text[lineStart:start])
	if strings.TrimLeft(indent, "\t ") != "" { // the node does not start its line
		indent = indent[:len(indent)-len(strings.TrimLeft(indent, "\t "))]
	}
	lines := strings.Split(string(text[lineStart:end]), "\n")
	for i, line := range lines {
		lines[i] = strings.TrimPrefix(line, indent)
	}
	return strings.Join(lines, "\n")
}
