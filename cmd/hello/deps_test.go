package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestHelloImports keeps out of the smallest server what it does not use.
// It reads the import graph of this command with `go list -deps` and
// checks two kinds of package:
//
//   - packages no stdio server needs, which must not be in the graph at all;
//   - heavy packages that are in it today only because
//     github.com/kaptinlin/jsonschema imports them, which no other package
//     may import: if mcpwire's own code imports one, a later fix of the
//     library (or a trimmed copy of it) would no longer take it out.
//
// The linker drops functions nothing calls, so a package in the graph costs
// little unless it is used; but the graph is what this test can read without
// a linker map, and a package that leaves the graph cannot come back into the
// binary by a later call.
func TestHelloImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, ".").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	inGraph := map[string]bool{}
	importers := map[string][]string{} // package -> the packages of the graph that import it
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		inGraph[fields[0]] = true
		for _, imp := range fields[1:] {
			importers[imp] = append(importers[imp], fields[0])
		}
	}
	if !inGraph["github.com/mcpwire/mcpwire/mcp"] {
		t.Fatalf("go list -deps did not list github.com/mcpwire/mcpwire/mcp; output:\n%s", out)
	}

	// Packages a stdio server does not use.
	for _, pkg := range []string{
		"github.com/mcpwire/mcpwire/validate/yamlcheck", // the YAML argument check, for tools that take YAML
		"text/template", // reflect-driven method calls keep every exported method of every reachable type
		"html/template",
	} {
		if inGraph[pkg] {
			t.Errorf("cmd/hello depends on %s, imported by %s", pkg, strings.Join(importers[pkg], ", "))
		}
	}

	// Packages that only the schema library may bring in. Their weight is the
	// library's: at package initialisation it builds a default compiler, and
	// every compiler registers an HTTP loader for remote "$ref"s (net/http
	// and crypto/tls: about 4.7 MB of the binary with Go 1.26, although
	// schema.Compile removes the loaders again) and decoders for
	// "contentMediaType" "application/xml" and "application/yaml".
	const lib = "github.com/kaptinlin/jsonschema"
	for _, pkg := range []string{"net/http", "encoding/xml", "github.com/goccy/go-yaml"} {
		var others []string
		for _, imp := range importers[pkg] {
			if imp != lib && !isStd(imp) && !strings.HasPrefix(imp, pkg+"/") {
				others = append(others, imp)
			}
		}
		if len(others) > 0 {
			slices.Sort(others)
			t.Errorf("%s is imported by %s; in a server only %s may import it", pkg, strings.Join(others, ", "), lib)
		}
	}
}

// isStd reports whether an import path is the standard library's (its first
// element has no dot).
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
