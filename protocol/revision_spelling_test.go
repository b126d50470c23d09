package protocol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestRevisionDatesSpelledOnce walks the main module's library code and
// fails when a file other than revision.go spells a revision date in code
// (comments aside): everyone else asks a Revision, so that a new revision
// or gate is one edit here.
func TestRevisionDatesSpelledOnce(t *testing.T) {
	date := regexp.MustCompile(`^20\d\d-\d\d-\d\d$`)
	skipDirs := map[string]bool{
		"interop": true, "bench": true, "cmd": true,
		"conformance": true, "deploy": true, "internal/testsupport/exampleclient": true,
	}
	allowed := map[string]bool{
		"protocol/revision.go": true,
		// apps.ProtocolVersion: the MCP Apps postMessage protocol's own
		// version, which is no MCP revision.
		"apps/meta.go": true,
	}
	root := ".."
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			if skipDirs[rel] || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || allowed[rel] {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && date.MatchString(s) {
				t.Errorf("%s: revision date %s spelled in code: ask a protocol.Revision instead", fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
