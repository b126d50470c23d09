package examples

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestImports holds each example to the mcpwire packages it imports
// (its non-test code): as few as the README's servers need.
func TestImports(t *testing.T) {
	const mod = "github.com/mcpwire/mcpwire/"
	for dir, want := range map[string][]string{
		"files":   {"mcp", "probe", "tool"},
		"notes":   {"mcp", "tool"},
		"restapi": {"auth", "mcp", "mcphttp", "oauth", "tool"},
	} {
		out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, "./"+dir).Output()
		if err != nil {
			t.Fatalf("%s: go list: %v", dir, err)
		}
		var got []string
		for _, imp := range strings.Fields(string(out)) {
			if strings.HasPrefix(imp, mod) {
				got = append(got, strings.TrimPrefix(imp, mod))
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("examples/%s imports the mcpwire packages %v, want %v", dir, got, want)
		}
	}
}

// TestStdio builds the stdio examples and drives each over real pipes:
// the handshake, one request, and a clean exit when its input ends.
func TestStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds binaries")
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello from the root"), 0o644); err != nil {
		t.Fatal(err)
	}
	const handshake = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
`
	for _, c := range []struct {
		dir, request, want string
		args               []string
	}{
		{"files", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"hello.txt"}}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hello from the root"}],"structuredContent":{"result":"hello from the root"}}}`, []string{"-root", root}},
		{"notes", `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"note://groceries"}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"contents":[{"uri":"note://groceries","mimeType":"text/plain","text":"milk, eggs, bread"}]}}`, nil},
	} {
		bin := filepath.Join(t.TempDir(), c.dir)
		if out, err := exec.Command("go", "build", "-o", bin, "./"+c.dir).CombinedOutput(); err != nil {
			t.Fatalf("go build ./%s: %v\n%s", c.dir, err, out)
		}
		cmd := exec.CommandContext(t.Context(), bin, c.args...)
		cmd.Stdin = strings.NewReader(handshake + c.request + "\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", c.dir, err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != 2 || !strings.Contains(lines[0], `"serverInfo":{"name":"`+c.dir+`"`) || lines[1] != c.want {
			t.Errorf("%s answered\n%s\nwant the initialize result, then\n%s", c.dir, out, c.want)
		}
	}
}
