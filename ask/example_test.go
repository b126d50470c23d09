package ask_test

import (
	"context"
	"errors"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/internal/testsupport/exampleclient"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// A typed form: the fields become the requested schema, and an accepted
// answer is decoded into the struct. The same handler serves both eras.
func ExampleElicitAs() {
	type Booking struct {
		Guests int    `json:"guests" title:"Guests" jsonschema:"minimum=1,maximum=8"`
		Date   string `json:"date" jsonschema:"format=date"`
	}
	book := func(ctx context.Context, _ struct{}) (string, error) {
		reply, err := ask.ElicitAs[Booking](ctx, "Which table?", ask.Key("booking"))
		if err != nil {
			return "", err
		}
		if !reply.Accepted() {
			return "no booking: " + string(reply.Action), nil
		}
		return fmt.Sprintf("booked for %d on %s", reply.Content.Guests, reply.Content.Date), nil
	}
	exampleclient.Converse(tool.New("book", "Books a table.", book), `{"elicitation":{}}`,
		func(method string, _ json.RawMessage) string {
			return `{"action":"accept","content":{"guests":2,"date":"2026-12-24"}}`
		})
	// Output:
	// legacy:
	//   the server asks: elicitation/create
	//   result: booked for 2 on 2026-12-24
	// modern:
	//   input_required: booking (elicitation/create)
	//   result: booked for 2 on 2026-12-24
}

// Ask every question before checking errors: a 2026-07-28 client gets them
// all in one round. Keys name the questions on the wire.
func ExampleRoots() {
	survey := func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		roots, err1 := ask.Roots(ctx, ask.Key("roots"))
		name, err2 := ask.SampleText(ctx, "Name this project in one word.", 10, ask.Key("name"))
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		return tool.TextResult(fmt.Sprintf("%s: %d root(s), first %s", name, len(roots), roots[0].URI)), nil
	}
	t := tool.Tool{Name: "survey", Description: "Surveys the workspace.", InputSchema: json.RawMessage(`{"type":"object"}`), Handler: survey}
	exampleclient.Converse(t, `{"roots":{},"sampling":{}}`, func(method string, _ json.RawMessage) string {
		if method == protocol.MethodListRoots {
			return `{"roots":[{"uri":"file:///src/app"}]}`
		}
		return `{"role":"assistant","content":{"type":"text","text":"Atlas"},"model":"m"}`
	})
	// Output:
	// legacy:
	//   the server asks: roots/list
	//   the server asks: sampling/createMessage
	//   result: Atlas: 1 root(s), first file:///src/app
	// modern:
	//   input_required: name (sampling/createMessage)
	//   input_required: roots (roots/list)
	//   result: Atlas: 1 root(s), first file:///src/app
}

// Remember and Recall carry a value across rounds: here, a side effect
// that must run once however many rounds the call takes.
func ExampleRemember() {
	confirm := func(ctx context.Context, _ struct{}) (string, error) {
		var ticket string
		if ok, _ := ask.Recall(ctx, "ticket", &ticket); !ok {
			ticket = "T-1" // say, opened in a tracker: once only
			ask.Remember(ctx, "ticket", ticket)
		}
		reply, err := ask.Elicit(ctx, "Close "+ticket+"?", protocol.RequestedSchema{
			Properties: map[string]protocol.PrimitiveSchemaDefinition{"ok": {Boolean: &protocol.BooleanSchema{}}},
			Required:   []string{"ok"},
		})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s: %s, ok=%v", ticket, reply.Action, reply.Content["ok"]), nil
	}
	exampleclient.Converse(tool.New("close", "Closes a ticket.", confirm), `{"elicitation":{}}`,
		func(string, json.RawMessage) string { return `{"action":"accept","content":{"ok":true}}` })
	// Output:
	// legacy:
	//   the server asks: elicitation/create
	//   result: T-1: accept, ok=true
	// modern:
	//   input_required: elicitation-34b0097f5587 (elicitation/create)
	//   result: T-1: accept, ok=true
}

// A client that did not declare what the handler needs never sees the
// question: the handler gets a *CapabilityError, and returning it makes
// the response -32021 with data.requiredCapabilities.
func ExampleRequire() {
	summarize := func(ctx context.Context, _ struct{}) (string, error) {
		if err := ask.Require(ctx, "sampling"); err != nil {
			return "", err
		}
		return ask.SampleText(ctx, "Summarize.", 50)
	}
	exampleclient.Converse(tool.New("summarize", "Summarizes.", summarize), `{}`, nil)
	// Output:
	// legacy:
	//   error -32021: missing client capability: this request needs "sampling", which the client did not declare
	// modern:
	//   error -32021: missing client capability: this request needs "sampling", which the client did not declare
}
