package client_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

func TestEveryOperationInBothEras(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			ctx := bounded(t)
			c := connect(t, testServer(), &client.Options{Era: e.era})
			info := c.Info()
			wantEra := e.era
			if wantEra == 0 {
				wantEra = protocol.Modern
			}
			if info.Era != wantEra || info.Server.Name != "test" || info.Detection == "" {
				t.Fatalf("Info = %+v", info)
			}
			if err := c.Ping(ctx); err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tl := range collect(t, c.Tools(ctx)) {
				names = append(names, tl.Name)
			}
			if len(names) != 4 || names[0] != "add" || names[3] != "steps" {
				t.Fatalf("tools %v, want the four over four pages", names)
			}
			sum, err := client.CallToolAs[Sum](ctx, c, "add", Pair{2, 3})
			if err != nil || sum.Sum != 5 {
				t.Fatalf("add = %v, %v", sum, err)
			}
			res, err := c.CallTool(ctx, "add", map[string]int{"a": 1, "b": 1})
			if err != nil || res.IsError != nil || string(res.StructuredContent) != `{"sum":2}` {
				t.Fatalf("CallTool = %+v, %v", res, err)
			}
			if rs := collect(t, c.Resources(ctx)); len(rs) != 1 || rs[0].URI != "file:///readme" {
				t.Fatalf("resources %v", rs)
			}
			read, err := c.ReadResource(ctx, "file:///readme")
			if err != nil || len(read.Contents) != 1 || read.Contents[0].Text == nil || read.Contents[0].Text.Text != "hello" {
				t.Fatalf("ReadResource = %+v, %v", read, err)
			}
			if ps := collect(t, c.Prompts(ctx)); len(ps) != 1 || ps[0].Name != "greet" {
				t.Fatalf("prompts %v", ps)
			}
			p, err := c.GetPrompt(ctx, "greet", map[string]string{"name": "Ada"})
			if err != nil || len(p.Messages) != 1 {
				t.Fatalf("GetPrompt = %+v, %v", p, err)
			}
			if len(collect(t, c.ResourceTemplates(ctx))) != 0 {
				t.Fatal("templates listed")
			}
			if err := c.SetLogLevel(ctx, protocol.LoggingLevel("debug")); err != nil {
				t.Fatal(err)
			}
			var rpcErr *jsonrpc.Error
			if _, err := c.CallTool(ctx, "nope", nil); !errors.As(err, &rpcErr) {
				t.Fatalf("an unknown tool: %v, want a *jsonrpc.Error", err)
			}
			if f := c.Findings(); len(f) != 0 {
				t.Fatalf("findings on a valid server: %+v", f)
			}
		})
	}
}

func TestServerQuestionsInBothEras(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			ctx := bounded(t)
			c := connect(t, testServer(), &client.Options{
				Era: e.era,
				Elicit: func(_ context.Context, p *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
					return &protocol.ElicitResult{Action: protocol.ElicitAccept, Content: protocol.Object{"ok": []byte("true")}}, nil
				},
				Roots: []protocol.Root{{URI: "file:///work"}},
			})
			res, err := c.CallTool(ctx, "survey", nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Content[0].Text.Text; got != "true file:///work" {
				t.Fatalf("survey = %q", got)
			}
			if err := c.SetRoots(ctx, []protocol.Root{{URI: "file:///other"}}); err != nil {
				t.Fatal(err)
			}
			res, err = c.CallTool(ctx, "survey", nil)
			if err != nil || res.Content[0].Text.Text != "true file:///other" {
				t.Fatalf("after SetRoots: %+v, %v", res, err)
			}
		})
	}
}

func TestUnansweredQuestion(t *testing.T) {
	for _, e := range eras[:2] {
		t.Run(e.name, func(t *testing.T) {
			c := connect(t, testServer(), &client.Options{Era: e.era})
			res, err := c.CallTool(bounded(t), "survey", nil)
			// Legacy: the server's request gets -32601 and the tool fails;
			// modern: the server refuses the call, -32021, since the
			// client declared no elicitation. Never a hang.
			if err == nil && (res.IsError == nil || !*res.IsError) {
				t.Fatalf("survey without handlers = %+v", res)
			}
			var rpcErr *jsonrpc.Error
			if e.era == protocol.Modern && (!errors.As(err, &rpcErr) || rpcErr.Code != -32021) {
				t.Fatalf("modern: %v, want -32021", err)
			}
		})
	}
}

func TestProgress(t *testing.T) {
	for _, e := range eras[:2] {
		t.Run(e.name, func(t *testing.T) {
			c := connect(t, testServer(), &client.Options{Era: e.era})
			var mu sync.Mutex
			var got []float64
			ctx := client.WithProgress(bounded(t), func(p protocol.ProgressNotificationParams) {
				mu.Lock()
				got = append(got, p.Progress)
				mu.Unlock()
			})
			if _, err := c.CallTool(ctx, "steps", nil); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(got) != 3 || got[2] != 3 {
				t.Fatalf("progress %v, want 1 2 3", got)
			}
		})
	}
}

func TestCancelByContext(t *testing.T) {
	for _, e := range eras[:2] {
		t.Run(e.name, func(t *testing.T) {
			c := connect(t, testServer(), &client.Options{Era: e.era})
			ctx, cancel := context.WithCancel(bounded(t))
			done := make(chan error, 1)
			go func() {
				_, err := c.CallTool(ctx, "slow", nil)
				done <- err
			}()
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled call: %v", err)
			}
			if err := c.Ping(bounded(t)); err != nil {
				t.Fatalf("after a cancelled call: %v", err)
			}
		})
	}
}

func TestConcurrentCalls(t *testing.T) {
	for _, e := range eras[:2] {
		t.Run(e.name, func(t *testing.T) {
			ctx := bounded(t)
			c := connect(t, testServer(), &client.Options{Era: e.era})
			var wg sync.WaitGroup
			errs := make(chan error, 64)
			for i := range 16 {
				wg.Go(func() {
					for j := range 8 {
						sum, err := client.CallToolAs[Sum](ctx, c, "add", Pair{i, j})
						if err == nil && sum.Sum != i+j {
							err = errors.New("wrong sum")
						}
						if err != nil {
							errs <- err
							return
						}
						for _, err := range c.Tools(ctx) {
							if err != nil {
								errs <- err
								return
							}
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

func TestClosed(t *testing.T) {
	c := connect(t, testServer(), nil)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Ping(bounded(t)); !errors.Is(err, client.ErrClosed) {
		t.Fatalf("Ping after Close: %v, want ErrClosed", err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
}

// SetRoots tells a legacy server with notifications/roots/list_changed; a
// 2026-07-28 server, which has no such notification, asks when it needs
// the roots.
func TestSetRootsNotifies(t *testing.T) {
	for _, tc := range []struct {
		era  protocol.Era
		want int
	}{{protocol.Legacy, 1}, {protocol.Modern, 0}} {
		c, f := serveFake(t, tc.era, nil, &client.Options{Roots: []protocol.Root{}})
		if err := c.SetRoots(bounded(t), []protocol.Root{{URI: "file:///x"}}); err != nil {
			t.Fatal(err)
		}
		c.Call(bounded(t), "test/sync", nil, nil) // answered after what was sent before it
		if got := f.count(protocol.NotificationRootsListChanged); got != tc.want {
			t.Errorf("%v: %d roots/list_changed, want %d", tc.era, got, tc.want)
		}
	}
	c, _ := serveFake(t, protocol.Legacy, nil, nil)
	if err := c.SetRoots(bounded(t), nil); err == nil {
		t.Error("SetRoots without Options.Roots did not fail")
	}
}
