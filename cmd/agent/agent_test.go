package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// serveFlag, as the first argument of the test binary, makes it one of
// the test servers over stdio: "agent.test serve-test-server files".
const serveFlag = "serve-test-server"

func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == serveFlag {
		newServer := testServers[os.Args[2]]
		if newServer == nil {
			os.Exit(3)
		}
		if err := mcp.RunStdio(context.Background(), newServer(), nil); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// discard drops the test servers' logs.
var discard = slog.New(slog.DiscardHandler)

// Sum is add's result.
type Sum struct {
	Sum int `json:"sum"`
}

// testServers build the servers the agent meets, by name.
var testServers = map[string]func() *mcp.Server{
	// files has a read-only tool, a destructive one, an unannotated one
	// and one that asks the user.
	"files": func() *mcp.Server {
		srv := mcp.NewServer(mcp.Implementation{Name: "files", Version: "1"}, &mcp.Options{Logger: discard})
		srv.MustAddTool(tool.New("list", "Lists the files.\nOne a line.", func(context.Context, struct{}) (string, error) {
			return "a.txt\nb.txt", nil
		}, tool.ReadOnly(true)))
		srv.MustAddTool(tool.New("delete", "Deletes a file.", func(_ context.Context, in struct {
			Path string `json:"path"`
		}) (string, error) {
			return "deleted " + in.Path, nil
		}, tool.Destructive(true)))
		srv.MustAddTool(tool.New("touch", "Touches a file.", func(context.Context, struct{}) (string, error) {
			return "touched", nil
		}))
		srv.MustAddTool(tool.New("rename", "Asks for a new name.", func(ctx context.Context, _ struct{}) (string, error) {
			reply, err := ask.ElicitAs[struct {
				Name string `json:"name"`
			}](ctx, "New name?", ask.Key("name"))
			if err != nil {
				return "", err
			}
			if !reply.Accepted() {
				return "kept the name: " + string(reply.Action), nil
			}
			return "renamed to " + reply.Content.Name, nil
		}, tool.ReadOnly(false), tool.Destructive(false)))
		return srv
	},
	// calc has a typed tool and one that fails.
	"calc": func() *mcp.Server {
		srv := mcp.NewServer(mcp.Implementation{Name: "calc", Version: "1"}, &mcp.Options{Logger: discard})
		srv.MustAddTool(tool.New("add", "Adds.", func(_ context.Context, in struct {
			A int `json:"a"`
			B int `json:"b"`
		}) (Sum, error) {
			return Sum{in.A + in.B}, nil
		}, tool.ReadOnly(true)))
		srv.MustAddTool(tool.New("divide", "Divides.", func(_ context.Context, in struct {
			A int `json:"a"`
			B int `json:"b"`
		}) (int, error) {
			if in.B == 0 {
				return 0, errors.New("division by zero")
			}
			return in.A / in.B, nil
		}, tool.ReadOnly(true)))
		return srv
	},
}

// bounded is a context that ends with the test or in 60 s.
func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// inProcess is a target served by a new server of testServers over a
// pipe; the test's cleanup waits for the server to end.
func inProcess(t *testing.T, name string) target {
	serverEnd, clientEnd := transport.Pipe(transport.Options{})
	done := make(chan error, 1)
	go func() { done <- testServers[name]().Serve(context.Background(), serverEnd) }()
	t.Cleanup(func() {
		clientEnd.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Errorf("the %s server did not end", name)
		}
	})
	return target{label: "pipe " + name, transport: client.Conn{Conn: clientEnd}}
}

// testConfig is the configuration of the in-process runs.
func testConfig(allowDestructive bool, targets ...target) *config {
	return &config{targets: targets, allowDestructive: allowDestructive,
		stepTimeout: 30 * time.Second, connectTimeout: 30 * time.Second}
}

// mustParse parses a line plan.
func mustParse(t *testing.T, text string) []step {
	steps, err := parseLinePlan(text)
	if err != nil {
		t.Fatal(err)
	}
	return steps
}

func TestDefaultPlanInProcess(t *testing.T) {
	var out bytes.Buffer
	cfg := testConfig(false, inProcess(t, "files"), inProcess(t, "calc"), inProcess(t, "calc"))
	if err := drive(bounded(t), cfg, nil, &out); err != nil {
		t.Fatal(err)
	}
	want := `connected: files (modern 2026-07-28) over pipe files
connected: calc (modern 2026-07-28) over pipe calc
connected: calc-2 (modern 2026-07-28) over pipe calc
tools:
  files/list: Lists the files.
  files/rename: Asks for a new name.
  calc/add: Adds.
  calc/divide: Divides.
  calc-2/add: Adds.
  calc-2/divide: Divides.
  refused files/delete: policy: it may be destructive (pass --allow-destructive to admit it)
  refused files/touch: policy: it may be destructive (pass --allow-destructive to admit it)
plan: 4 steps
> files/list
  a.txt
  b.txt
> files/rename
  files asks: "New name?": declined
  kept the name: decline
> files/delete
  refused by the admit gate: policy: it may be destructive (pass --allow-destructive to admit it)
> files/touch
  refused by the admit gate: policy: it may be destructive (pass --allow-destructive to admit it)
done: 2 ok, 0 tool errors, 2 refused, 0 failed
`
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
}

func TestScriptedPlanInProcess(t *testing.T) {
	steps := mustParse(t, `
# every outcome of a step
calc add {"a": 2, "b": 3}
calc divide {"a": 1, "b": 0}
files delete {"path": "a.txt"}
files nope
ghost list
`)
	var out bytes.Buffer
	err := drive(bounded(t), testConfig(false, inProcess(t, "files"), inProcess(t, "calc")), steps, &out)
	if !errors.Is(err, errStepsFailed) {
		t.Fatalf("drive = %v, want errStepsFailed", err)
	}
	_, got, _ := strings.Cut(out.String(), "plan:")
	want := ` 5 steps
> calc/add {"a": 2, "b": 3}
  {"sum":5}
> calc/divide {"a": 1, "b": 0}
  the tool reported an error:
  division by zero
> files/delete {"path": "a.txt"}
  refused by the admit gate: policy: it may be destructive (pass --allow-destructive to admit it)
> files/nope
  error: jsonrpc error -32602: invalid params: unknown tool "nope"
> ghost/list
  error: no server named "ghost"
done: 1 ok, 1 tool errors, 1 refused, 2 failed
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestAllowDestructive(t *testing.T) {
	var out bytes.Buffer
	steps := mustParse(t, `files delete {"path":"a.txt"}`)
	if err := drive(bounded(t), testConfig(true, inProcess(t, "files")), steps, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "> files/delete {\"path\":\"a.txt\"}\n  deleted a.txt\n") || strings.Contains(out.String(), "refused files/delete") {
		t.Fatalf("with --allow-destructive:\n%s", out.String())
	}
}

// lockedBuffer is a buffer that servers' stderr may write to while the
// test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestCommandOverStdioAndHTTP runs the command as a user would: one server
// is this test binary started over stdio, the other an HTTP endpoint on
// the loopback, and the plan a JSON file.
func TestCommandOverStdioAndHTTP(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	h := mcphttp.NewHandler(testServers["calc"](), &mcphttp.Options{Logger: discard})
	hs := httptest.NewServer(h)
	t.Cleanup(func() { hs.Close(); h.Close() })

	plan := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(plan, []byte(`[
		{"server": "files", "tool": "list"},
		{"server": "calc", "tool": "add", "arguments": {"a": 40, "b": 2}}
	]`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut lockedBuffer
	err = run(bounded(t), []string{"--plan", plan, "--stdio", exe + " " + serveFlag + " files", "--http", hs.URL}, &out, &errOut)
	if err != nil || exitCode(err) != 0 {
		t.Fatalf("run = %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errOut.String())
	}
	for _, want := range []string{
		"connected: files (modern 2026-07-28) over stdio " + exe,
		"connected: calc (modern 2026-07-28) over http " + hs.URL,
		"> files/list\n  a.txt\n  b.txt\n",
		"> calc/add {\"a\": 40, \"b\": 2}\n  {\"sum\":42}\n",
		"done: 2 ok, 0 tool errors, 0 refused, 0 failed\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, out.String())
		}
	}
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	badPlan := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(badPlan, []byte("calc add [1]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no server", nil, "no server"},
		{"stray argument", []string{"--http", "http://127.0.0.1:1/mcp", "extra"}, "unexpected argument"},
		{"not a URL", []string{"--http", "ftp://x"}, "not an http or https URL"},
		{"empty command", []string{"--stdio", " "}, "empty command"},
		{"bad plan", []string{"--plan", badPlan, "--http", "http://127.0.0.1:1/mcp"}, "line 1: the arguments of calc/add are not a JSON object"},
		{"missing plan", []string{"--plan", filepath.Join(dir, "none"), "--http", "http://127.0.0.1:1/mcp"}, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var errOut bytes.Buffer
			err := run(bounded(t), tc.args, io.Discard, &errOut)
			if exitCode(err) != 2 || !strings.Contains(errOut.String(), tc.want) {
				t.Fatalf("run = %v (exit %d), stderr:\n%s\nwant %q", err, exitCode(err), errOut.String(), tc.want)
			}
		})
	}
}

func TestPlanFormats(t *testing.T) {
	lines, err := parseLinePlan("a t1\n\n  # note\nb t2   {\"x\": 1}\n")
	if err != nil {
		t.Fatal(err)
	}
	js, err := parseJSONPlan([]byte(`[{"server":"a","tool":"t1"},{"server":"b","tool":"t2","arguments":{"x": 1}}]`))
	if err != nil {
		t.Fatal(err)
	}
	for _, steps := range [][]step{lines, js} {
		if len(steps) != 2 || steps[0].String() != "a/t1" || steps[1].String() != `b/t2 {"x": 1}` {
			t.Fatalf("steps %v", steps)
		}
	}
	for _, bad := range []string{"lonely", `a t {"x":`, "a t null"} {
		if _, err := parseLinePlan(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if _, err := parseJSONPlan([]byte(`[{"server":"a"}]`)); err == nil {
		t.Error("a JSON step without a tool parsed")
	}
}
