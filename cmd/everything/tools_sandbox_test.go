package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/probe"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// sandboxClient talks to a server holding only the sandbox tools, with
// probe.Guard installed.
type sandboxClient struct {
	t    *testing.T
	conn *transport.Stream
	next int64
}

func newSandboxClient(t *testing.T, root string) *sandboxClient {
	srv := mcp.NewServer(mcp.Implementation{Name: "sandbox-test", Version: "1"},
		&mcp.Options{Logger: quietLogger(), ToolMiddleware: []tool.Middleware{probe.Guard()}})
	for _, tl := range sandboxTools(root) {
		srv.MustAddTool(tl)
	}
	a, b := transport.Pipe(transport.Options{})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), a) }()
	c := &sandboxClient{t: t, conn: b}
	t.Cleanup(func() {
		b.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("Serve did not return")
		}
	})
	c.request("initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)
	b.Write(context.Background(), &jsonrpc.Notification{Method: "notifications/initialized"})
	return c
}

func (c *sandboxClient) request(method, params string) *jsonrpc.Response {
	c.t.Helper()
	c.next++
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.conn.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(c.next), Method: method, Params: json.RawMessage(params)}); err != nil {
		c.t.Fatal(err)
	}
	msg, err := c.conn.Read(ctx)
	if err != nil {
		c.t.Fatal(err)
	}
	return msg.(*jsonrpc.Response)
}

// call returns the result of tools/call as compact text.
func (c *sandboxClient) call(params string) string {
	c.t.Helper()
	resp := c.request("tools/call", params)
	if resp.Error != nil {
		c.t.Fatalf("tools/call %s: error %d %s", params, resp.Error.Code, resp.Error.Message)
	}
	return string(resp.Result)
}

func TestWriteFileProbeThenWrite(t *testing.T) {
	root := t.TempDir()
	c := newSandboxClient(t, root)
	probeReply := c.call(`{"name":"write_file","arguments":{"path":"./notes//a.txt","content":"hello"},"_meta":{"forge.permission_patterns":true}}`)
	if want := `{"content":[],"_meta":{"forge.always":[],"forge.patterns":["write:notes/a.txt"]}}`; !sameJSONText(probeReply, want) {
		t.Errorf("probe reply = %s, want %s", probeReply, want)
	}
	if _, err := os.Stat(filepath.Join(root, "notes")); !os.IsNotExist(err) {
		t.Fatalf("the probe touched the sandbox (stat notes: %v)", err)
	}
	if got := c.call(`{"name":"write_file","arguments":{"path":"./notes//a.txt","content":"hello"}}`); !sameJSONText(got, `{"content":[{"type":"text","text":"wrote 5 bytes to notes/a.txt"}]}`) {
		t.Errorf("real call = %s", got)
	}
	if b, err := os.ReadFile(filepath.Join(root, "notes", "a.txt")); err != nil || string(b) != "hello" {
		t.Errorf("file = %q, %v", b, err)
	}
	if got := c.call(`{"name":"read_file","arguments":{"path":"notes/a.txt"}}`); !sameJSONText(got, `{"content":[{"type":"text","text":"hello"}]}`) {
		t.Errorf("read_file = %s", got)
	}
}

func TestWriteFileRefusesEscapes(t *testing.T) {
	root := t.TempDir()
	c := newSandboxClient(t, root)
	outside := filepath.Join(filepath.Dir(root), "outside.txt")
	for _, p := range []string{"../outside.txt", "a/../../outside.txt", outside, ".", ""} {
		args, _ := json.Marshal(map[string]string{"path": p, "content": "x"})
		real := c.call(`{"name":"write_file","arguments":` + string(args) + `}`)
		probed := c.call(`{"name":"write_file","arguments":` + string(args) + `,"_meta":{"forge.permission_patterns":true}}`)
		if !strings.Contains(real, `"isError":true`) || real != probed {
			t.Errorf("path %q: real call %s, probe %s; want the same isError result", p, real, probed)
		}
		if strings.Contains(real, root) {
			t.Errorf("path %q: the reply names the sandbox root: %s", p, real)
		}
	}
	if _, err := os.Stat(outside); !os.IsNotExist(err) {
		t.Errorf("a file was written outside the sandbox")
	}
}

func TestWriteFileRefusesSymlinkOut(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(root, "link")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	c := newSandboxClient(t, root)
	got := c.call(`{"name":"write_file","arguments":{"path":"link/x.txt","content":"x"}}`)
	if !strings.Contains(got, `"isError":true`) {
		t.Errorf("write through a link out of the sandbox = %s", got)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "x.txt")); !os.IsNotExist(err) {
		t.Error("the write followed the link out of the sandbox")
	}
}

// The probe approves write:sub2/x; sub2 is then swapped for a link to
// private, inside the sandbox. The real call must not write private/x: it
// fails, naming the link, and a new probe names the real target.
func TestWriteFileSymlinkSwap(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the no-follow guarantee is Linux's; elsewhere os.Root follows links inside the root")
	}
	root := t.TempDir()
	for _, d := range []string{"sub2", "private"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c := newSandboxClient(t, root)
	args := `{"name":"write_file","arguments":{"path":"sub2/x","content":"approved"}`
	if got := c.call(args + `,"_meta":{"forge.permission_patterns":true}}`); !strings.Contains(got, `"forge.patterns":["write:sub2/x"]`) {
		t.Fatalf("probe = %s", got)
	}
	if err := os.Remove(filepath.Join(root, "sub2")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("private", filepath.Join(root, "sub2")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	got := c.call(args + `}`)
	if !strings.Contains(got, `"isError":true`) || !strings.Contains(got, `\"sub2\" is a symbolic link`) || strings.Contains(got, root) {
		t.Errorf("real call after the swap = %s; want an isError result naming the link", got)
	}
	if _, err := os.Lstat(filepath.Join(root, "private", "x")); err == nil {
		t.Fatal("the real call wrote private/x, which the probe did not approve")
	}
	if got := c.call(args + `,"_meta":{"forge.permission_patterns":true}}`); !strings.Contains(got, `"forge.patterns":["write:private/x"]`) {
		t.Errorf("probe after the swap = %s; want the real target", got)
	}
	if err := os.WriteFile(filepath.Join(root, "private", "secret.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	got = c.call(`{"name":"read_file","arguments":{"path":"sub2/secret.txt"}}`)
	if !strings.Contains(got, `"isError":true`) || strings.Contains(got, "secret\"") || !strings.Contains(got, "symbolic link") {
		t.Errorf("read_file through the link = %s", got)
	}
}

// A path as long as a message comes back clipped in every error.
func TestSandboxPathsClipped(t *testing.T) {
	root := t.TempDir()
	c := newSandboxClient(t, root)
	huge := strings.Repeat("a", 1<<20)
	for _, p := range []string{huge, "../" + huge, "d/" + huge, strings.Repeat("d/", 1<<19), strings.Repeat("d/", probe.MaxPathBytes/2) + "x"} {
		arg, _ := json.Marshal(p)
		for _, params := range []string{
			`{"name":"write_file","arguments":{"path":` + string(arg) + `,"content":"x"}}`,
			`{"name":"write_file","arguments":{"path":` + string(arg) + `,"content":"x"},"_meta":{"forge.permission_patterns":true}}`,
			`{"name":"read_file","arguments":{"path":` + string(arg) + `}}`,
		} {
			got := c.call(params)
			if !strings.Contains(got, `"isError":true`) || len(got) > 1000 || !strings.Contains(got, "bytes)") {
				t.Errorf("%.60s… = %d bytes: %.300s", params, len(got), got)
			}
		}
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("the sandbox holds %d entries after refused calls", len(entries))
	}
}

// A FIFO in the sandbox makes read_file and write_file fail at once rather
// than wait for a peer that never comes.
func TestSandboxRefusesFIFO(t *testing.T) {
	root := t.TempDir()
	if err := exec.Command("mkfifo", filepath.Join(root, "pipe")).Run(); err != nil {
		t.Skip("no mkfifo here:", err)
	}
	c := newSandboxClient(t, root)
	for _, params := range []string{
		`{"name":"read_file","arguments":{"path":"pipe"}}`,
		`{"name":"write_file","arguments":{"path":"pipe","content":"x"}}`,
	} {
		if got := c.call(params); !strings.Contains(got, `"isError":true`) {
			t.Errorf("%s = %s", params, got)
		}
	}
}

func TestReadFileRefusesProbes(t *testing.T) {
	root := t.TempDir()
	c := newSandboxClient(t, root)
	resp := c.request("tools/call", `{"name":"read_file","arguments":{"path":"a.txt"},"_meta":{"forge.permission_patterns":true}}`)
	if resp.Error == nil || resp.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(resp.Error.Message, `"read_file" does not support permission probing`) {
		t.Errorf("probe of read_file = %+v %s", resp.Error, resp.Result)
	}
	list := c.request("tools/list", `{}`)
	var l struct {
		Tools []struct {
			Name string         `json:"name"`
			Meta map[string]any `json:"_meta"`
		}
	}
	json.Unmarshal(list.Result, &l)
	for _, tl := range l.Tools {
		if want := tl.Name == "write_file"; (tl.Meta[probe.SupportsKey] == true) != want {
			t.Errorf("%s advertises _meta %v", tl.Name, tl.Meta)
		}
	}
	for _, args := range []string{`{"path":"missing.txt"}`, `{"path":"../x"}`, `{"path":"."}`} {
		if got := c.call(`{"name":"read_file","arguments":` + args + `}`); !strings.Contains(got, `"isError":true`) || strings.Contains(got, root) {
			t.Errorf("read_file %s = %s", args, got)
		}
	}
}

func TestSandboxRoot(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(sandboxEnv, "")
	root, cleanup, err := sandboxRoot("")
	if err != nil || !filepath.IsAbs(root) {
		t.Fatalf("default root = %q, %v", root, err)
	}
	cleanup()
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Errorf("cleanup left the temporary sandbox %s", root)
	}

	t.Setenv(sandboxEnv, dir)
	if root, cleanup, err = sandboxRoot(""); err != nil || root != dir {
		t.Errorf("root from $%s = %q, %v; want %q", sandboxEnv, root, err, dir)
	}
	cleanup()
	if _, err := os.Stat(dir); err != nil {
		t.Errorf("cleanup removed a directory the user named: %v", err)
	}

	flagDir := t.TempDir()
	if root, _, err = sandboxRoot(flagDir); err != nil || root != flagDir {
		t.Errorf("root from the flag = %q, %v; want %q", root, err, flagDir)
	}
	if _, _, err = sandboxRoot(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing sandbox directory was accepted")
	}
}

// sameJSONText reports whether two JSON texts hold the same value.
func sameJSONText(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}
