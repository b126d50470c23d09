package gateway_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// asker is an upstream whose tools ask their caller: a form, a sampling,
// the roots, and log. starts counts the runs of confirm that reached its
// question.
func asker(starts *atomic.Int32) *mcp.Server {
	srv := mcp.NewServer(mcp.Implementation{Name: "asker", Version: "1"}, &mcp.Options{Logger: quiet})
	srv.MustAddTool(tool.New("confirm", "Asks to go on.", func(ctx context.Context, _ struct{}) (string, error) {
		starts.Add(1)
		reply, err := ask.Elicit(ctx, "Go on?", protocol.RequestedSchema{
			Properties: map[string]protocol.PrimitiveSchemaDefinition{"sure": {Boolean: &protocol.BooleanSchema{}}},
			Required:   []string{"sure"}})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s %v", reply.Action, reply.Content["sure"]), nil
	}))
	srv.MustAddTool(tool.New("both", "Asks twice.", func(ctx context.Context, _ struct{}) (string, error) {
		name, err := ask.SampleText(ctx, "A name?", 10)
		if err != nil {
			return "", err
		}
		roots, err := ask.Roots(ctx)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s in %d roots, first %s", name, len(roots), roots[0].URI), nil
	}))
	srv.MustAddTool(tool.New("chatty", "Logs.", func(ctx context.Context, _ struct{}) (string, error) {
		mcp.Logger(ctx).Warn("from upstream", "n", 1)
		return "said", nil
	}))
	return srv
}

// caller connects to g in era with every handler a host has.
func caller(t *testing.T, g *gateway.Gateway, era protocol.Era, logs chan<- string) *client.Client {
	t.Helper()
	return serveGatewayWith(t, g, &client.Options{Era: era, Logger: quiet,
		Elicit: func(_ context.Context, p *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
			if p.Form == nil || p.Form.Message != "Go on?" {
				return nil, errors.New("unexpected elicitation")
			}
			return &protocol.ElicitResult{Action: protocol.ElicitAccept, Content: protocol.Object{"sure": json.RawMessage("true")}}, nil
		},
		Sample: func(context.Context, *protocol.CreateMessageRequestParams) (*protocol.CreateMessageResult, error) {
			return &protocol.CreateMessageResult{Role: protocol.RoleAssistant, Model: "m",
				Content: protocol.SamplingContent{Blocks: []protocol.SamplingContentBlock{{Text: &protocol.TextContent{Text: "Atlas"}}}}}, nil
		},
		Roots: []protocol.Root{{URI: "file:///src"}, {URI: "file:///doc"}},
		OnNotification: func(n *jsonrpc.Notification) {
			if n.Method == protocol.NotificationMessage && logs != nil {
				logs <- string(n.Params)
			}
		},
	})
}

func textOf(t *testing.T, r *protocol.CallToolResult) string {
	t.Helper()
	var parts []string
	for _, b := range r.Content {
		if b.Text != nil {
			parts = append(parts, b.Text.Text)
		}
	}
	if r.IsError != nil && *r.IsError {
		t.Fatalf("the call failed: %s", strings.Join(parts, " "))
	}
	return strings.Join(parts, " ")
}

// An upstream's questions reach the gateway's caller and its answers go
// back, whichever era each side speaks; a legacy upstream's call is not
// started again by a modern caller's rounds.
func TestRelayedQuestions(t *testing.T) {
	for _, up := range []string{"2025-11-25", "2026-07-28"} {
		for _, era := range []protocol.Era{protocol.Legacy, protocol.Modern} {
			t.Run(fmt.Sprintf("upstream %s, caller %s", up, era), func(t *testing.T) {
				var starts atomic.Int32
				g := newGateway(t, &gateway.Config{NoNamespace: true, Upstreams: []gateway.Upstream{
					{Name: "asker", Server: asker(&starts), ProtocolVersion: up}}})
				logs := make(chan string, 4)
				c := caller(t, g, era, logs)
				ctx := bounded(t)

				r, err := c.CallTool(ctx, "confirm", nil)
				if err != nil {
					t.Fatal(err)
				}
				if got := textOf(t, r); got != "accept true" {
					t.Errorf("confirm answered %q, want %q", got, "accept true")
				}
				want := int32(1) // a legacy upstream runs once, whatever the caller's rounds
				if up == "2026-07-28" {
					want = 2 // its own two rounds: asking, then answered
				}
				if n := starts.Load(); n != want {
					t.Errorf("the upstream's tool ran %d times, want %d", n, want)
				}

				r, err = c.CallTool(ctx, "both", nil)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := textOf(t, r), "Atlas in 2 roots, first file:///src"; got != want {
					t.Errorf("both answered %q, want %q", got, want)
				}

				if err := c.SetLogLevel(ctx, protocol.LevelInfo); err != nil {
					t.Fatal(err)
				}
				if _, err := c.CallTool(ctx, "chatty", nil); err != nil {
					t.Fatal(err)
				}
				select {
				case l := <-logs:
					if !strings.Contains(l, `"warning"`) || !strings.Contains(l, "from upstream") {
						t.Errorf("relayed log message %s", l)
					}
				case <-ctx.Done():
					t.Fatal("the upstream's log message never reached the caller")
				}
			})
		}
	}
}

// A caller that cannot answer hears so from the gateway (-32021 with the
// capability it lacks), and the upstream's call is given up.
func TestRelayedQuestionCallerCannotAnswer(t *testing.T) {
	for _, era := range []protocol.Era{protocol.Legacy, protocol.Modern} {
		t.Run(era.String(), func(t *testing.T) {
			var starts atomic.Int32
			g := newGateway(t, &gateway.Config{NoNamespace: true, Upstreams: []gateway.Upstream{
				{Name: "asker", Server: asker(&starts)}}})
			c := serveGateway(t, g, era) // no handlers
			_, err := c.CallTool(bounded(t), "confirm", nil)
			var je *jsonrpc.Error
			if !errors.As(err, &je) || !strings.Contains(je.Error(), "elicitation") {
				t.Fatalf("a call whose upstream asks a caller without elicitation: %v, want an error naming elicitation", err)
			}
		})
	}
}

// Calls in flight at once each get their own questions.
func TestRelayedQuestionsConcurrent(t *testing.T) {
	var starts atomic.Int32
	g := newGateway(t, &gateway.Config{NoNamespace: true, Upstreams: []gateway.Upstream{
		{Name: "asker", Server: asker(&starts)}}})
	c := caller(t, g, protocol.Modern, nil)
	ctx := bounded(t)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Go(func() {
			r, err := c.CallTool(ctx, "confirm", nil)
			if err == nil && (len(r.Content) == 0 || r.Content[0].Text == nil || r.Content[0].Text.Text != "accept true") {
				err = fmt.Errorf("answered %+v", r.Content)
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// A 2026-07-28 upstream's round reaches a 2026-07-28 caller whole, under
// the upstream's keys, in one round.
func TestRelayedRoundKeepsKeys(t *testing.T) {
	up := mcp.NewServer(mcp.Implementation{Name: "up", Version: "1"}, &mcp.Options{Logger: quiet})
	up.MustAddTool(tool.New("two", "Asks two things at once.", func(ctx context.Context, _ struct{}) (string, error) {
		reply, err1 := ask.Elicit(ctx, "Go on?", protocol.RequestedSchema{
			Properties: map[string]protocol.PrimitiveSchemaDefinition{"sure": {Boolean: &protocol.BooleanSchema{}}}}, ask.Key("user_name"))
		name, err2 := ask.SampleText(ctx, "A name?", 10, ask.Key("model"))
		if err := errors.Join(err1, err2); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s %s", reply.Action, name), nil
	}))
	g := newGateway(t, &gateway.Config{NoNamespace: true, Upstreams: []gateway.Upstream{{Name: "up", Server: up}}})
	var rounds [][]string
	c := serveGatewayWith(t, g, &client.Options{Era: protocol.Modern, Logger: quiet,
		Elicit: func(context.Context, *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
			return nil, errors.New("unused")
		},
		Sample: func(context.Context, *protocol.CreateMessageRequestParams) (*protocol.CreateMessageResult, error) {
			return nil, errors.New("unused")
		},
		AnswerInputs: func(_ context.Context, in map[string]protocol.InputRequest) (map[string]json.RawMessage, error) {
			var keys []string
			out := map[string]json.RawMessage{}
			for k, r := range in {
				keys = append(keys, k)
				switch {
				case r.Elicit != nil:
					out[k] = json.RawMessage(`{"action":"accept","content":{"sure":true}}`)
				case r.CreateMessage != nil:
					out[k] = json.RawMessage(`{"role":"assistant","model":"m","content":{"type":"text","text":"Atlas"}}`)
				}
			}
			slices.Sort(keys)
			rounds = append(rounds, keys)
			return out, nil
		}})
	r, err := c.CallTool(bounded(t), "two", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := textOf(t, r); got != "accept Atlas" {
		t.Errorf("two answered %q", got)
	}
	if want := [][]string{{"model", "user_name"}}; !reflect.DeepEqual(rounds, want) {
		t.Errorf("the caller's rounds asked %v, want %v", rounds, want)
	}
}

// Between a 2026-07-28 caller's rounds nothing waits in a gateway in
// front of a 2026-07-28 upstream: the upstream's round travels in the
// caller's requestState, so two gateways sharing a state key (behind one
// load balancer) each take the rounds the other began: round one asked
// by gateway A, answered to gateway B, which runs the upstream's next
// round, answered to A.
func TestRelayedRoundsMoveBetweenGateways(t *testing.T) {
	var starts atomic.Int32
	up := asker(&starts)
	key := []byte(strings.Repeat("k", 32))
	gateways := make([]*client.Client, 2)
	for i := range gateways {
		g, err := gateway.New(bounded(t), &gateway.Config{NoNamespace: true, Upstreams: []gateway.Upstream{{Name: "asker", Server: up}}},
			&gateway.Options{Logger: quiet, Server: &mcp.Options{Logger: quiet, StateKey: key}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { g.Close() })
		gateways[i] = serveGatewayWith(t, g, &client.Options{Era: protocol.Modern, Logger: quiet,
			Capabilities: &protocol.ClientCapabilities{Sampling: &protocol.SamplingCapability{}, Roots: protocol.Object{}},
			AnswerInputs: func(context.Context, map[string]protocol.InputRequest) (map[string]json.RawMessage, error) {
				return nil, client.ErrDeferInput // the test answers, to the other gateway
			}})
	}
	answer := func(in protocol.InputRequest) json.RawMessage {
		var v any
		switch {
		case in.CreateMessage != nil:
			v = &protocol.CreateMessageResult{Role: protocol.RoleAssistant, Model: "m",
				Content: protocol.SamplingContent{Blocks: []protocol.SamplingContentBlock{{Text: &protocol.TextContent{Text: "Atlas"}}}}}
		case in.ListRoots != nil:
			v = &protocol.ListRootsResult{Roots: []protocol.Root{{URI: "file:///src"}}}
		default:
			t.Fatalf("asked %+v", in)
		}
		raw, _ := json.Marshal(v)
		return raw
	}
	ctx := bounded(t)
	_, err := gateways[0].CallTool(ctx, "both", nil)
	for round := 1; ; round++ {
		var ir *client.InputRound
		if !errors.As(err, &ir) {
			if round != 3 {
				t.Fatalf("round %d: %v, want an input round", round, err)
			}
			break
		}
		if len(ir.Requests) != 1 || ir.State == "" {
			t.Fatalf("round %d asked %+v", round, ir)
		}
		answers := map[string]json.RawMessage{}
		for k, in := range ir.Requests {
			answers[k] = answer(in)
		}
		var r *protocol.CallToolResult
		r, err = gateways[round%2].CallTool(client.WithInputResponses(ctx, ir, answers), "both", nil)
		if err == nil {
			if round != 2 {
				t.Fatalf("answered after round %d, want 2", round)
			}
			if got, want := textOf(t, r), "Atlas in 1 roots, first file:///src"; got != want {
				t.Errorf("both answered %q, want %q", got, want)
			}
			return
		}
	}
}
