package client_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// A round AnswerInputs defers ends the call with an *InputRound (the
// server's requests and requestState); the call resumed with its answers
// (WithInputResponses) finishes where the server left off (what the tool
// remembered in the first round is there), and the tools/list the first
// call of a tool makes does not take the answers meant for tools/call.
func TestDeferredRound(t *testing.T) {
	var firstRuns atomic.Int32
	srv := mcp.NewServer(mcp.Implementation{Name: "s", Version: "1"}, &mcp.Options{Logger: quiet})
	srv.MustAddTool(tool.New("confirm", "Asks.", func(ctx context.Context, _ struct{}) (string, error) {
		if ok, _ := ask.Recall(ctx, "began", nil); !ok {
			firstRuns.Add(1)
			ask.Remember(ctx, "began", true)
		}
		reply, err := ask.Elicit(ctx, "Go on?", protocol.RequestedSchema{
			Properties: map[string]protocol.PrimitiveSchemaDefinition{"sure": {Boolean: &protocol.BooleanSchema{}}}})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s %v", reply.Action, reply.Content["sure"]), nil
	}))
	c := connect(t, srv, &client.Options{Era: protocol.Modern, Logger: quiet,
		Capabilities: &protocol.ClientCapabilities{Elicitation: &protocol.ElicitationCapability{}},
		AnswerInputs: func(context.Context, map[string]protocol.InputRequest) (map[string]json.RawMessage, error) {
			return nil, client.ErrDeferInput
		}})
	ctx := bounded(t)
	_, err := c.CallTool(ctx, "confirm", nil)
	var ir *client.InputRound
	if !errors.As(err, &ir) || ir.Method != protocol.MethodCallTool || len(ir.Requests) != 1 || ir.State == "" {
		t.Fatalf("the deferred call: %v (%+v), want an input round of one request with a state", err, ir)
	}
	answers := map[string]json.RawMessage{}
	for k, in := range ir.Requests {
		if in.Elicit == nil || in.Elicit.Form == nil {
			t.Fatalf("asked %+v, want a form", in)
		}
		answers[k] = json.RawMessage(`{"action":"accept","content":{"sure":true}}`)
	}
	fresh := connect(t, srv, &client.Options{Era: protocol.Modern, Logger: quiet, // has listed nothing yet
		Capabilities: &protocol.ClientCapabilities{Elicitation: &protocol.ElicitationCapability{}}})
	r, err := fresh.CallTool(client.WithInputResponses(ctx, ir, answers), "confirm", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Content[0].Text.Text; got != "accept true" {
		t.Errorf("the resumed call answered %q, want %q", got, "accept true")
	}
	if n := firstRuns.Load(); n != 1 {
		t.Errorf("the tool began %d times, want once: the resumed request lost its requestState", n)
	}
}
