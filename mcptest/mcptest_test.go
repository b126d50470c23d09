package mcptest_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/protocol"
)

// forEra runs f once per era with the era's client options.
func forEra(t *testing.T, f func(t *testing.T, era string, opts *client.Options)) {
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
	forEra(t, func(t *testing.T, _ string, era *client.Options) {
		c := mcptest.NewClient(t, everything(), era)
		tools, err := names(c.Tools(ctx(t)), func(x *protocol.Tool) string { return x.Name })
		check(t, "tools", err, tools, toolNames)
		res, err := names(c.Resources(ctx(t)), func(x *protocol.Resource) string { return x.URI })
		check(t, "resources", err, res, resourceURIs)
		tmpl, err := names(c.ResourceTemplates(ctx(t)), func(x *protocol.ResourceTemplate) string { return x.URITemplate })
		check(t, "templates", err, tmpl, templateURIs)
		prompts, err := names(c.Prompts(ctx(t)), func(x *protocol.Prompt) string { return x.Name })
		check(t, "prompts", err, prompts, promptNames)
	})
}

func TestCallTool(t *testing.T) {
	tests := []struct {
		name    string
		args    any
		text    string // wanted text of the result
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
	forEra(t, func(t *testing.T, _ string, era *client.Options) {
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
			if failed(res) != tt.isError || (tt.text != "" && text(res) != tt.text) {
				t.Errorf("%s: %q (isError %v), want %q (isError %v)", tt.name, text(res), failed(res), tt.text, tt.isError)
			}
		}
		sum, err := client.CallToolAs[Sum](ctx(t), c, "add", AddArgs{A: 1, B: 2})
		if err != nil || sum.Sum != 3 {
			t.Errorf("add decoded %+v, %v", sum, err)
		}
		if _, err := client.CallToolAs[Sum](ctx(t), c, "echo", map[string]string{"message": "x"}); err == nil {
			t.Error("CallToolAs of a result without structured content succeeded")
		}
	})
}

// The scripted replies answer in both eras; without them the capability
// is missing, and Capabilities overrides what they declare.
func TestAnswers(t *testing.T) {
	noCaps := func(o *client.Options) { o.Capabilities = &protocol.ClientCapabilities{} }
	tests := []struct {
		tool string
		opts []func(*client.Options)
		text string
		err  error
	}{
		{tool: "confirm", opts: []func(*client.Options){acceptOK}, text: `accept true`},
		{tool: "confirm", opts: []func(*client.Options){decline}, text: `decline false`},
		{tool: "confirm", opts: []func(*client.Options){acceptOK, noCaps}, err: jsonrpc.ErrMissingClientCapability},
		{tool: "sample", opts: []func(*client.Options){model}, text: `Atlas`},
		{tool: "sample", err: jsonrpc.ErrMissingClientCapability},
		{tool: "roots", opts: []func(*client.Options){roots}, text: `2 roots, first file:///src`},
		{tool: "roots", opts: []func(*client.Options){acceptOK, model}, err: jsonrpc.ErrMissingClientCapability},
	}
	forEra(t, func(t *testing.T, _ string, era *client.Options) {
		for _, tt := range tests {
			c := mcptest.NewClient(t, everything(), with(era, tt.opts...))
			res, err := c.CallTool(ctx(t), tt.tool, nil)
			switch {
			case tt.err != nil:
				if !errors.Is(err, tt.err) {
					t.Errorf("%s: %v, want %v", tt.tool, err, tt.err)
				}
			case err != nil:
				t.Errorf("%s: %v", tt.tool, err)
			case text(res) != tt.text:
				t.Errorf("%s: %q, want %q", tt.tool, text(res), tt.text)
			}
		}
	})
}

func TestReadResource(t *testing.T) {
	forEra(t, func(t *testing.T, era string, opts *client.Options) {
		c := mcptest.NewClient(t, everything(), opts)
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
	forEra(t, func(t *testing.T, _ string, era *client.Options) {
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
	forEra(t, func(t *testing.T, era string, opts *client.Options) {
		c := mcptest.NewClient(t, everything(), opts)
		var raw json.RawMessage
		err := c.Call(ctx(t), "tools/list", nil, &raw)
		if err != nil || !strings.Contains(string(raw), `"nextCursor"`) {
			t.Errorf("tools/list: %s, %v", raw, err)
		}
		if modern := strings.Contains(string(raw), `"resultType":"complete"`); modern != (era == "modern") {
			t.Errorf("tools/list in %s: %s", era, raw)
		}
		if err := c.Call(ctx(t), "no/such/method", nil, nil); !errors.Is(err, jsonrpc.ErrMethodNotFound) {
			t.Errorf("unknown method: %v, want -32601", err)
		}
		if rev := c.Info().Revision; !strings.HasPrefix(era, "legacy "+rev) && !(era == "modern" && rev == "2026-07-28") {
			t.Errorf("Info().Revision = %q in %s", rev, era)
		}
	})
}

// A call the test gives up on ends at its context; calls run concurrently.
func TestConcurrentAndCancelled(t *testing.T) {
	forEra(t, func(t *testing.T, _ string, era *client.Options) {
		c := mcptest.NewClient(t, everything(), with(era, acceptOK))
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
				if err != nil || failed(res) {
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
		c := mcptest.NewClient(rec, everything(), with(era, acceptOK))
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

// names lists the name of every item of seq, up to its error.
func names[T any](seq iter.Seq2[*T, error], name func(*T) string) ([]string, error) {
	var out []string
	for x, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, name(x))
	}
	return out, nil
}

func check(t *testing.T, what string, err error, got, want []string) {
	t.Helper()
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("%s: %q, %v; want %q", what, got, err, want)
	}
}
