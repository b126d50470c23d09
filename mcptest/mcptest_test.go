package mcptest_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/protocol"
)

// forEra runs f once per era, each with a fresh client.
func forEra(t *testing.T, f func(t *testing.T, era string, opt mcptest.Option)) {
	for _, era := range []string{"legacy 2025-06-18", "legacy 2025-11-25", "modern"} {
		t.Run(era, func(t *testing.T) { f(t, era, eras[era]) })
	}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return c
}

func TestLists(t *testing.T) {
	forEra(t, func(t *testing.T, _ string, era mcptest.Option) {
		c := mcptest.NewClient(t, everything(), era)
		tools, err := c.ListTools(ctx(t))
		check(t, "tools", err, names(tools, func(x protocol.Tool) string { return x.Name }), toolNames)
		res, err := c.ListResources(ctx(t))
		check(t, "resources", err, names(res, func(x protocol.Resource) string { return x.URI }), resourceURIs)
		tmpl, err := c.ListResourceTemplates(ctx(t))
		check(t, "templates", err, names(tmpl, func(x protocol.ResourceTemplate) string { return x.URITemplate }), templateURIs)
		prompts, err := c.ListPrompts(ctx(t))
		check(t, "prompts", err, names(prompts, func(x protocol.Prompt) string { return x.Name }), promptNames)
	})
}

func TestCallTool(t *testing.T) {
	tests := []struct {
		name    string
		args    any
		text    string // wanted Text()
		isError bool
		err     error // wanted error, matched with errors.Is
	}{
		{name: "echo", args: map[string]string{"message": "hi"}, text: "Echo: hi"},
		{name: "echo", args: "not an object", err: jsonrpc.ErrInvalidParams},
		{name: "echo", args: json.RawMessage(`{"message":"sent as it is"}`), text: "Echo: sent as it is"},
		{name: "add", args: AddArgs{A: 40, B: 2}, text: `{"sum":42}`},
		{name: "fail", text: "it went wrong", isError: true},
		{name: "add", args: map[string]string{"a": "x"}, isError: true},
		{name: "nope", err: jsonrpc.ErrInvalidParams},
		{name: "confirm", err: jsonrpc.ErrMissingClientCapability},
	}
	forEra(t, func(t *testing.T, _ string, era mcptest.Option) {
		c := mcptest.NewClient(t, everything(), era)
		for _, tt := range tests {
			res, err := c.CallTool(ctx(t), tt.name, tt.args)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Errorf("%s: %v, want %v", tt.name, err, tt.err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
				continue
			}
			if res.IsError != tt.isError || (tt.text != "" && res.Text() != tt.text) {
				t.Errorf("%s: %q (isError %v), want %q (isError %v)", tt.name, res.Text(), res.IsError, tt.text, tt.isError)
			}
		}
		res, err := c.CallTool(ctx(t), "add", AddArgs{A: 1, B: 2})
		var sum Sum
		if err != nil || res.Decode(&sum) != nil || sum.Sum != 3 {
			t.Errorf("add decoded %+v, %v", sum, err)
		}
		if res, _ := c.CallTool(ctx(t), "echo", map[string]string{"message": "x"}); res.Decode(&sum) == nil {
			t.Error("Decode of a result without structured content succeeded")
		}
	})
}

// The scripted replies answer in both eras; without them the capability
// is missing, and Capabilities overrides what they declare.
func TestAnswers(t *testing.T) {
	tests := []struct {
		tool string
		opts []mcptest.Option
		text string
		err  error
	}{
		{tool: "confirm", opts: []mcptest.Option{acceptOK}, text: `accept true`},
		{tool: "confirm", opts: []mcptest.Option{decline}, text: `decline false`},
		{tool: "confirm", opts: []mcptest.Option{acceptOK, mcptest.Capabilities(protocol.ClientCapabilities{})}, err: jsonrpc.ErrMissingClientCapability},
		{tool: "sample", opts: []mcptest.Option{model}, text: `Atlas`},
		{tool: "sample", err: jsonrpc.ErrMissingClientCapability},
		{tool: "roots", opts: []mcptest.Option{roots}, text: `2 roots, first file:///src`},
		{tool: "roots", opts: []mcptest.Option{acceptOK, model}, err: jsonrpc.ErrMissingClientCapability},
	}
	forEra(t, func(t *testing.T, _ string, era mcptest.Option) {
		for _, tt := range tests {
			c := mcptest.NewClient(t, everything(), append([]mcptest.Option{era}, tt.opts...)...)
			res, err := c.CallTool(ctx(t), tt.tool, nil)
			switch {
			case tt.err != nil:
				if !errors.Is(err, tt.err) {
					t.Errorf("%s: %v, want %v", tt.tool, err, tt.err)
				}
			case err != nil:
				t.Errorf("%s: %v", tt.tool, err)
			case res.Text() != tt.text:
				t.Errorf("%s: %q, want %q", tt.tool, res.Text(), tt.text)
			}
		}
	})
}

func TestReadResource(t *testing.T) {
	forEra(t, func(t *testing.T, era string, opt mcptest.Option) {
		c := mcptest.NewClient(t, everything(), opt)
		r, err := c.ReadResource(ctx(t), "test://static-text")
		if err != nil || len(r.Contents) != 1 || r.Contents[0].Text == nil || r.Contents[0].Text.Text != staticText {
			t.Errorf("static-text: %+v, %v", r, err)
		}
		r, err = c.ReadResource(ctx(t), "test://static-binary")
		if err != nil || len(r.Contents) != 1 || r.Contents[0].Blob == nil || r.Contents[0].Blob.Blob != base64.StdEncoding.EncodeToString(pixel) {
			t.Errorf("static-binary: %+v, %v", r, err)
		}
		r, err = c.ReadResource(ctx(t), "test://template/7/data")
		if err != nil || len(r.Contents) != 1 || r.Contents[0].Text == nil || r.Contents[0].Text.Text != `{"id":"7"}` {
			t.Errorf("template: %+v, %v", r, err)
		}
		want := jsonrpc.ErrResourceNotFound
		if era == "modern" {
			want = jsonrpc.ErrInvalidParams
		}
		if _, err := c.ReadResource(ctx(t), "test://missing"); !errors.Is(err, want) {
			t.Errorf("missing: %v, want %v", err, want)
		}
	})
}

func TestGetPrompt(t *testing.T) {
	forEra(t, func(t *testing.T, _ string, era mcptest.Option) {
		c := mcptest.NewClient(t, everything(), era)
		p, err := c.GetPrompt(ctx(t), "greet", map[string]string{"name": "Ada"})
		if err != nil || len(p.Messages) != 1 || p.Messages[0].Content.Text == nil || p.Messages[0].Content.Text.Text != "Hello, Ada!" {
			t.Errorf("greet: %+v, %v", p, err)
		}
		if _, err := c.GetPrompt(ctx(t), "greet", nil); !errors.Is(err, jsonrpc.ErrInvalidParams) {
			t.Errorf("greet without its argument: %v, want -32602", err)
		}
	})
}

func TestCall(t *testing.T) {
	forEra(t, func(t *testing.T, era string, opt mcptest.Option) {
		c := mcptest.NewClient(t, everything(), opt)
		raw, err := c.Call(ctx(t), "tools/list", nil)
		if err != nil || !strings.Contains(string(raw), `"nextCursor"`) {
			t.Errorf("tools/list: %s, %v", raw, err)
		}
		if modern := strings.Contains(string(raw), `"resultType":"complete"`); modern != (era == "modern") {
			t.Errorf("tools/list in %s: %s", era, raw)
		}
		if _, err := c.Call(ctx(t), "no/such/method", nil); !errors.Is(err, jsonrpc.ErrMethodNotFound) {
			t.Errorf("unknown method: %v, want -32601", err)
		}
		if !strings.HasPrefix(era, "legacy "+c.Revision()) && !(era == "modern" && c.Revision() == "2026-07-28") {
			t.Errorf("Revision() = %q in %s", c.Revision(), era)
		}
	})
}

// A call the test gives up on ends at its context; calls run concurrently.
func TestConcurrentAndCancelled(t *testing.T) {
	forEra(t, func(t *testing.T, _ string, era mcptest.Option) {
		c := mcptest.NewClient(t, everything(), era, acceptOK)
		short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		if _, err := c.CallTool(short, "slow", nil); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("slow: %v, want a deadline error", err)
		}
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				name := []string{"add", "confirm"}[i%2]
				res, err := c.CallTool(ctx(t), name, AddArgs{A: i, B: 1})
				if name == "confirm" {
					res, err = c.CallTool(ctx(t), name, nil)
				}
				if err != nil || res.IsError {
					t.Errorf("%s: %+v, %v", name, res, err)
				}
			}()
		}
		wg.Wait()
	})
}

// The cleanup closes the client, waits for Serve and leaves nothing
// running; it reports nothing for a well-behaved server.
func TestCleanup(t *testing.T) {
	before := leakcheck.Snapshot()
	rec := &recorder{TB: t}
	for _, era := range eras {
		c := mcptest.NewClient(rec, everything(), era, acceptOK)
		if _, err := c.CallTool(ctx(t), "confirm", nil); err != nil {
			t.Fatal(err)
		}
	}
	rec.cleanup()
	if len(rec.errors) > 0 {
		t.Errorf("cleanup reported %q", rec.errors)
	}
	leakcheck.Check(t, before)
}

// recorder is a testing.TB whose cleanups and errors the test sees.
type recorder struct {
	testing.TB
	cleanups []func()
	errors   []string
}

func (r *recorder) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) cleanup() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
}

func names[T any](items []T, name func(T) string) []string {
	var out []string
	for _, x := range items {
		out = append(out, name(x))
	}
	return out
}

func check(t *testing.T, what string, err error, got, want []string) {
	t.Helper()
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("%s: %q, %v; want %q", what, got, err, want)
	}
}
