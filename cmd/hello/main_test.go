package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"
)

// TestHello builds the command and holds the exchange a host has with it
// over real pipes: initialize, tools/list, tools/call, then EOF, after which
// the server must exit cleanly.
func TestHello(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "hello")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("go build: %v", err)
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"greet","arguments":{}}}`,
	}, "\n") + "\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hello exited with %v; stderr:\n%s", err, stderr.String())
	}
	// Calls run concurrently, so answers are matched by id, not by order.
	byID := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m struct{ ID json.RawMessage }
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		byID[string(m.ID)] = line
	}
	if len(byID) != 4 {
		t.Fatalf("got %d answers, want 4:\n%s", len(byID), out)
	}
	lines := []string{byID["1"], byID["2"], byID["3"], byID["4"]}
	var list struct {
		Result struct {
			Tools []struct {
				Name        string         `json:"name"`
				InputSchema map[string]any `json:"inputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &list); err != nil || len(list.Result.Tools) != 1 || list.Result.Tools[0].Name != "greet" {
		t.Errorf("tools/list = %s", lines[1])
	}
	want := `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"{\"message\":\"Hello, Ada!\"}"}],"structuredContent":{"message":"Hello, Ada!"}}}`
	var w, g any
	json.Unmarshal([]byte(want), &w)
	json.Unmarshal([]byte(lines[2]), &g)
	if d := cmp.Diff(w, g); d != "" {
		t.Errorf("tools/call (-want +got):\n%s", d)
	}
	if !strings.Contains(lines[3], `"isError":true`) {
		t.Errorf("a call without the required name = %s, want an isError result", lines[3])
	}
}
