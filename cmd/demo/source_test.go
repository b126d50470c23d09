package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// maxSourceLines bounds the source a step shows for one tool: a few lines
// a reader takes in at a glance, not a file.
const maxSourceLines = 20

// everythingDir is cmd/everything's source directory, from the module root.
func everythingDir(t *testing.T) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "cmd", "everything")
}

// TestToolSources checks that every tool a step names is found in
// cmd/everything, as its definition, in a few lines: a renamed or moved
// tool fails here before it fails a demo run.
func TestToolSources(t *testing.T) {
	dir := everythingDir(t)
	shown := 0
	for _, st := range append(append([]step{}, steps...), httpSteps...) {
		for _, name := range st.tools {
			shown++
			src, file, err := toolSource(dir, name)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if !strings.HasSuffix(file, ".go") || strings.HasSuffix(file, "_test.go") {
				t.Errorf("%s: found in %q, want a non-test Go file", name, file)
			}
			if !strings.Contains(src, strconv.Quote(name)) {
				t.Errorf("%s: the source shown does not name the tool:\n%s", name, src)
			}
			if n := strings.Count(src, "\n") + 1; n > maxSourceLines {
				t.Errorf("%s: %d lines of source, want at most %d", name, n, maxSourceLines)
			}
			if strings.HasPrefix(src, "\t") || strings.HasPrefix(src, " ") {
				t.Errorf("%s: the source is not dedented:\n%s", name, src)
			}
		}
	}
	if shown == 0 {
		t.Fatal("no step names a tool whose source it shows")
	}
}

// TestToolSourceTyped checks the typed handler's argument type comes first
// and that an unknown tool is an error naming it.
func TestToolSourceTyped(t *testing.T) {
	dir := everythingDir(t)
	src, _, err := toolSource(dir, "echo")
	if err != nil {
		t.Fatal(err)
	}
	typeAt, callAt := strings.Index(src, "type echoArgs struct"), strings.Index(src, `tool.New("echo"`)
	if typeAt != 0 || callAt < 0 {
		t.Errorf("want echoArgs's declaration first, then tool.New; got:\n%s", src)
	}
	if _, _, err := toolSource(dir, "no_such_tool"); err == nil || !strings.Contains(err.Error(), `"no_such_tool"`) {
		t.Errorf("unknown tool: err = %v, want one naming it", err)
	}
}
