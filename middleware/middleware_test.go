package middleware_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/internal/testsupport/pipeclient"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/middleware"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

var eras = []protocol.Era{protocol.Legacy, protocol.Modern}

type text struct {
	Text string `json:"text"`
}

// tools are echo, big (a result of 10 kB), slow (until its context ends,
// reporting that it did on ended) and wipe (destructive).
func tools(ended chan<- struct{}) []tool.Tool {
	return []tool.Tool{
		tool.New("echo", "Echoes.", func(_ context.Context, in text) (string, error) { return in.Text, nil }),
		tool.New("big", "A big result.", func(context.Context, struct{}) (string, error) { return strings.Repeat("x", 10000), nil }),
		tool.New("slow", "Waits for its end.", func(ctx context.Context, _ struct{}) (string, error) {
			<-ctx.Done()
			ended <- struct{}{}
			return "", ctx.Err()
		}),
		tool.New("wipe", "Wipes.", func(context.Context, struct{}) (string, error) { return "wiped", nil }, tool.Destructive(true)),
	}
}

// connect serves a server with mws and tools over a pipe to a client of
// era.
func connect(t *testing.T, era protocol.Era, opts *mcp.Options, ended chan<- struct{}) *client.Client {
	t.Helper()
	opts.Logger = quiet
	srv := mcp.NewServer(mcp.Implementation{Name: "s", Version: "1"}, opts)
	for _, tl := range tools(ended) {
		if err := srv.AddTool(tl); err != nil {
			t.Fatal(err)
		}
	}
	if err := srv.AddResource(mcp.Resource{URI: "test://big", Name: "big", Read: mcp.StaticRead(strings.Repeat("y", 10000))}); err != nil {
		t.Fatal(err)
	}
	c := pipeclient.Connect(t, srv, &client.Options{Era: era, Logger: quiet})
	return c
}

func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// reason is data.reason of a JSON-RPC error, "" for anything else.
func reason(err error) string {
	var je *jsonrpc.Error
	if !errors.As(err, &je) {
		return ""
	}
	var d struct {
		Reason string `json:"reason"`
	}
	json.Unmarshal(je.Data, &d)
	return d.Reason
}

func TestRateLimit(t *testing.T) {
	for _, era := range eras {
		t.Run(era.String(), func(t *testing.T) {
			c := connect(t, era, &mcp.Options{Middleware: []mcp.Middleware{middleware.RateLimit(1, "tools/call")}}, nil)
			var limited int
			for range 4 {
				if _, err := c.CallTool(bounded(t), "echo", text{"x"}); reason(err) == "rate_limited" {
					limited++
				} else if err != nil {
					t.Fatal(err)
				}
			}
			if limited < 1 || limited > 2 { // a burst of 2, and at most a token back while calling
				t.Fatalf("%d of 4 calls limited, want 1 or 2", limited)
			}
			if err := c.Ping(bounded(t)); err != nil {
				t.Fatalf("ping, another method: %v", err)
			}
		})
	}
}

// Each caller has its own budget; anonymous callers share one.
func TestRateLimitPerCaller(t *testing.T) {
	ok := func(context.Context, *mcp.Request) (json.RawMessage, error) { return json.RawMessage(`{}`), nil }
	h := middleware.RateLimit(1)(ok)
	req := func(subject string) *mcp.Request {
		r := &mcp.Request{Method: "tools/call", ID: jsonrpc.Int64ID(1)}
		if subject != "" {
			r.Caller = &auth.Principal{Subject: subject}
		}
		return r
	}
	for _, who := range []string{"alice", "alice", "bob", "bob", "", ""} {
		if _, err := h(context.Background(), req(who)); err != nil {
			t.Fatalf("%q within its burst: %v", who, err)
		}
	}
	for _, who := range []string{"alice", "bob", ""} {
		if _, err := h(context.Background(), req(who)); reason(err) != "rate_limited" {
			t.Fatalf("%q past its burst: %v", who, err)
		}
	}
}

func TestTimeout(t *testing.T) {
	for _, era := range eras {
		t.Run(era.String(), func(t *testing.T) {
			ended := make(chan struct{}, 1)
			c := connect(t, era, &mcp.Options{Middleware: []mcp.Middleware{middleware.Timeout(100*time.Millisecond, "tools/call")}}, ended)
			if _, err := c.CallTool(bounded(t), "slow", nil); reason(err) != "timeout" {
				t.Fatalf("slow: %v, want reason timeout", err)
			}
			select {
			case <-ended:
			case <-time.After(10 * time.Second):
				t.Fatal("the handler's context never ended")
			}
			if r, err := c.CallTool(bounded(t), "echo", text{"quick"}); err != nil || r.IsError != nil {
				t.Fatalf("echo: %+v, %v", r, err)
			}
		})
	}
}

func TestMaxResultBytes(t *testing.T) {
	for _, era := range eras {
		t.Run(era.String(), func(t *testing.T) {
			c := connect(t, era, &mcp.Options{Middleware: []mcp.Middleware{middleware.MaxResultBytes(4096)}}, nil)
			r, err := c.CallTool(bounded(t), "big", nil)
			if err != nil || r.IsError == nil || !*r.IsError || !strings.Contains(r.Content[0].Text.Text, "over this server's limit of 4096") {
				t.Fatalf("big: %+v, %v", r, err)
			}
			if _, err := c.ReadResource(bounded(t), "test://big"); reason(err) != "result_too_large" {
				t.Fatalf("reading test://big: %v, want reason result_too_large", err)
			}
			if r, err := c.CallTool(bounded(t), "echo", text{"small"}); err != nil || r.IsError != nil {
				t.Fatalf("echo: %+v, %v", r, err)
			}
		})
	}
}

func TestAccessLog(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	c := connect(t, protocol.Modern, &mcp.Options{Caller: &auth.Principal{Subject: "alice"}, Middleware: []mcp.Middleware{middleware.AccessLog(logger)}}, nil)
	if _, err := c.CallTool(bounded(t), "echo", text{"a-secret-argument"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CallTool(bounded(t), "nope", nil); err == nil {
		t.Fatal("nope answered")
	}
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		lines = append(lines, m)
	}
	if strings.Contains(buf.String(), "a-secret-argument") {
		t.Fatalf("the log holds an argument's value:\n%s", buf.String())
	}
	var echo, nope map[string]any
	for _, l := range lines {
		switch l["target"] {
		case "echo":
			echo = l
		case "nope":
			nope = l
		}
	}
	if echo == nil || echo["method"] != "tools/call" || echo["caller"] != "alice" || echo["era"] != "modern" || echo["outcome"] != "ok" || echo["duration"] == nil {
		t.Fatalf("the echo line: %v", echo)
	}
	if nope == nil || nope["outcome"] != "error" || nope["code"] != float64(jsonrpc.CodeInvalidParams) || nope["level"] != "WARN" {
		t.Fatalf("the nope line: %v", nope)
	}
}

func TestFilterTools(t *testing.T) {
	safe := func(_ *auth.Principal, tl *protocol.Tool) bool {
		return tl.Annotations == nil || tl.Annotations.DestructiveHint == nil || !*tl.Annotations.DestructiveHint
	}
	for _, era := range eras {
		t.Run(era.String(), func(t *testing.T) {
			opts := &mcp.Options{Middleware: []mcp.Middleware{middleware.FilterTools(safe)}}
			c := connect(t, era, opts, nil)
			var names []string
			for tl, err := range c.Tools(bounded(t)) {
				if err != nil {
					t.Fatal(err)
				}
				names = append(names, tl.Name)
			}
			if strings.Join(names, ",") != "echo,big,slow" {
				t.Fatalf("listed %v, want wipe hidden", names)
			}
			_, err := c.CallTool(bounded(t), "wipe", nil)
			var je *jsonrpc.Error
			if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, `unknown tool "wipe"`) {
				t.Fatalf("calling wipe: %v", err)
			}
		})
	}
}

// On 2026-07-28 a list a filter sees is never cached as "public".
func TestFilterToolsPrivate(t *testing.T) {
	srv := mcp.NewServer(mcp.Implementation{Name: "s", Version: "1"}, &mcp.Options{Logger: quiet,
		CacheHints: map[string]mcp.CacheHint{"tools/list": {TTL: time.Minute, Public: true}},
		Middleware: []mcp.Middleware{middleware.FilterTools(func(*auth.Principal, *protocol.Tool) bool { return true })}})
	srv.AddTool(tools(nil)[0])
	a, b := transport.Pipe(transport.Options{})
	go srv.Serve(t.Context(), a)
	defer b.Close()
	params := `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}`
	if err := b.Write(bounded(t), &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/list", Params: json.RawMessage(params)}); err != nil {
		t.Fatal(err)
	}
	m, err := b.Read(bounded(t))
	if err != nil {
		t.Fatal(err)
	}
	if r := m.(*jsonrpc.Response); !strings.Contains(string(r.Result), `"cacheScope":"private"`) {
		t.Fatalf("tools/list: %s", r.Result)
	}
}
