package probe_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/probe"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// session is a client connected to an mcp.Server over transport.Pipe.
type session struct {
	t    testing.TB
	conn *transport.Stream
	next int64
	done chan error
}

// serve starts a server with the given tools, initializes a session at
// 2025-06-18 and stops it (checking for leaked goroutines) when the test
// ends.
func serve(t testing.TB, opts *mcp.Options, tools ...tool.Tool) *session {
	t.Helper()
	leakcheck.CheckAtEnd(t)
	if opts == nil {
		opts = &mcp.Options{}
	}
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := mcp.NewServer(mcp.Implementation{Name: "probe-test", Version: "1"}, opts)
	for _, tl := range tools {
		srv.MustAddTool(tl)
	}
	a, b := transport.Pipe(transport.Options{})
	s := &session{t: t, conn: b, done: make(chan error, 1)}
	go func() { s.done <- srv.Serve(context.Background(), a) }()
	t.Cleanup(func() {
		s.conn.Close()
		select {
		case err := <-s.done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("Serve did not return after the client closed")
		}
	})
	s.request("initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe-test","version":"1"}}`)
	if err := s.conn.Write(context.Background(), &jsonrpc.Notification{Method: "notifications/initialized"}); err != nil {
		t.Fatal(err)
	}
	return s
}

// request sends one request and returns its response.
func (s *session) request(method, params string) *jsonrpc.Response {
	s.t.Helper()
	s.next++
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req := &jsonrpc.Request{ID: jsonrpc.Int64ID(s.next), Method: method, Params: json.RawMessage(params)}
	if err := s.conn.Write(ctx, req); err != nil {
		s.t.Fatalf("write %s: %v", method, err)
	}
	msg, err := s.conn.Read(ctx)
	if err != nil {
		s.t.Fatalf("read the answer to %s: %v", method, err)
	}
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || resp.ID != req.ID {
		s.t.Fatalf("got %#v, want the response to request %v", msg, req.ID)
	}
	return resp
}

// call sends tools/call and returns the result, failing on a JSON-RPC error.
func (s *session) call(params string) json.RawMessage {
	s.t.Helper()
	resp := s.request("tools/call", params)
	if resp.Error != nil {
		s.t.Fatalf("tools/call %s: JSON-RPC error %d %q", params, resp.Error.Code, resp.Error.Message)
	}
	return resp.Result
}

// sameJSON fails the test when two JSON texts differ as values.
func sameJSON(t testing.TB, what string, want, got []byte) {
	t.Helper()
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("%s: want is not JSON: %v", what, err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: got is not JSON: %v\n%s", what, err, got)
	}
	if d := cmp.Diff(w, g); d != "" {
		t.Errorf("%s (-want +got):\n%s", what, d)
	}
}

// touch is a tool with visible side effects: each real call counts itself
// and writes a file under dir. Its pattern function counts itself too, and
// is lenient on purpose: it would answer patterns for any arguments, so
// only the server's own argument validation can stop a bad probe.
type touch struct {
	dir    string
	runs   atomic.Int64
	probes atomic.Int64
}

const touchSchema = `{"type":"object","properties":{"path":{"type":"string","minLength":1}},"required":["path"],"additionalProperties":false}`

func newTouch(t testing.TB) *touch { return &touch{dir: t.TempDir()} }

func (tc *touch) tool() tool.Tool {
	root, err := probe.NewRoot(tc.dir)
	if err != nil {
		panic(err)
	}
	t := tool.Tool{
		Name:        "touch",
		Description: "Writes the file path under the test directory.",
		InputSchema: json.RawMessage(touchSchema),
		Meta:        map[string]any{"example.com/owner": "tests"},
		Handler: func(_ context.Context, args json.RawMessage) (*tool.Result, error) {
			tc.runs.Add(1)
			var in struct{ Path string }
			json.Unmarshal(args, &in)
			if err := os.WriteFile(filepath.Join(tc.dir, in.Path), []byte("touched"), 0o644); err != nil {
				return nil, err
			}
			return tool.TextResult("touched " + in.Path), nil
		},
	}
	return probe.Wrap(t, func(_ context.Context, args json.RawMessage) (probe.Patterns, error) {
		tc.probes.Add(1)
		var in struct{ Path string }
		json.Unmarshal(args, &in)
		p, err := root.File(probe.Write, in.Path)
		if err != nil {
			return probe.Patterns{}, err
		}
		return probe.Patterns{Args: []probe.Pattern{p}, Always: []probe.Pattern{probe.MustParse("exec:git")}}, nil
	})
}

// exists reports whether name exists under the tool's directory.
func (tc *touch) exists(name string) bool {
	_, err := os.Stat(filepath.Join(tc.dir, name))
	return err == nil
}

// counter is a tool without probe support whose calls are counted.
type counter struct{ runs atomic.Int64 }

func (c *counter) tool() tool.Tool {
	return tool.Tool{
		Name:        "count",
		Description: "Counts its calls.",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
			c.runs.Add(1)
			return tool.TextResult("counted"), nil
		},
	}
}
