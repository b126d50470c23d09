package client

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

var errBoom = errors.New("boom")

const (
	askElicit = `{"method":"elicitation/create","params":{"message":"ok?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}`
	askRoots  = `{"method":"roots/list"}`
	askSample = `{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"name it"}}],"maxTokens":5}}`
)

// rounds is a modern server whose tools/call answers input_required with
// each of asks in turn (raw input_required results), then a complete
// result; it records the params of each attempt.
func rounds(asks []string, got *[]map[string]json.RawMessage) script {
	return modern(func(p *peer, m jsonrpc.Message) {
		r := m.(*jsonrpc.Request)
		var params map[string]json.RawMessage
		json.Unmarshal(r.Params, &params)
		*got = append(*got, params)
		if n := len(*got); n <= len(asks) {
			p.result(r.ID, asks[n-1])
			return
		}
		p.result(r.ID, `{"resultType":"complete","content":[]}`)
	})
}

func TestInputRequired(t *testing.T) {
	tests := []struct {
		name     string
		asks     []string
		handlers Handlers
		max      int
		err      error // wanted from Call
		answers  []string
		states   []string // requestState sent on each attempt ("" none)
	}{
		{name: "two rounds", asks: []string{
			`{"resultType":"input_required","inputRequests":{"b":` + askRoots + `,"a":` + askElicit + `},"requestState":"st\u00e91"}`,
			`{"resultType":"input_required","inputRequests":{"c":` + askSample + `},"requestState":"st2"}`,
		}, handlers: Handlers{Elicit: acceptAll, Roots: rootsAnswer, Sample: sampleAnswer},
			answers: []string{"", `{"a":{"action":"accept","content":{"ok":true}},"b":{"roots":[{"uri":"file:///src"}]}}`,
				`{"c":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}}`},
			states: []string{"", `"st\u00e91"`, `"st2"`}},
		{name: "state only", asks: []string{`{"resultType":"input_required","requestState":"later"}`},
			answers: []string{"", ""}, states: []string{"", `"later"`}},
		{name: "no handler", asks: []string{`{"resultType":"input_required","inputRequests":{"a":` + askElicit + `}}`},
			err: ErrNoHandler},
		{name: "unknown input method", asks: []string{`{"resultType":"input_required","inputRequests":{"a":{"method":"x/y"}}}`},
			handlers: Handlers{Elicit: acceptAll}, err: ErrBadAnswer},
		{name: "neither requests nor state", asks: []string{`{"resultType":"input_required"}`}, err: ErrBadAnswer},
		{name: "too many rounds", max: 2, asks: []string{
			`{"resultType":"input_required","requestState":"1"}`, `{"resultType":"input_required","requestState":"2"}`,
			`{"resultType":"input_required","requestState":"3"}`}, err: ErrTooManyRounds},
		{name: "handler error", asks: []string{`{"resultType":"input_required","inputRequests":{"a":` + askRoots + `}}`},
			handlers: Handlers{Roots: func(context.Context) (*protocol.ListRootsResult, error) { return nil, errBoom }},
			err:      errBoom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []map[string]json.RawMessage
			sess, p := connect(t, rounds(tt.asks, &got), Options{Handlers: tt.handlers, MaxInputRounds: tt.max})
			params := json.RawMessage(`{"name":"ask","arguments":{"x":1},"_meta":{"progressToken":"p"}}`)
			result, rpcErr, err := sess.Call(bounded(t), "tools/call", params)
			switch {
			case tt.err != nil:
				if !errors.Is(err, tt.err) {
					t.Fatalf("Call = %v, want %v", err, tt.err)
				}
				return
			case err != nil || rpcErr != nil:
				t.Fatalf("Call: %v %v", rpcErr, err)
			}
			if string(result) != `{"resultType":"complete","content":[]}` {
				t.Errorf("result %s", result)
			}
			if len(got) != len(tt.answers) {
				t.Fatalf("%d attempts, want %d", len(got), len(tt.answers))
			}
			ids := map[string]bool{}
			for i, r := range p.requests("tools/call") {
				if ids[r.ID.Raw()] {
					t.Errorf("attempt %d reused id %s", i+1, r.ID)
				}
				ids[r.ID.Raw()] = true
			}
			for i, params := range got {
				if string(params["name"]) != `"ask"` || string(params["arguments"]) != `{"x":1}` {
					t.Errorf("attempt %d lost the params: %v", i+1, params)
				}
				if !strings.Contains(string(params["_meta"]), `"progressToken":"p"`) || !strings.Contains(string(params["_meta"]), "protocolVersion") {
					t.Errorf("attempt %d _meta %s", i+1, params["_meta"])
				}
				if string(params["requestState"]) != tt.states[i] {
					t.Errorf("attempt %d requestState %s, want %s (echoed exactly)", i+1, params["requestState"], tt.states[i])
				}
				if want := tt.answers[i]; (want == "") != (params["inputResponses"] == nil) || (want != "" && !jsonEqual(t, params["inputResponses"], want)) {
					t.Errorf("attempt %d inputResponses %s, want %s", i+1, params["inputResponses"], want)
				}
			}
		})
	}
}

// The legacy era never reads input_required: the result is the caller's.
func TestInputRequiredLegacy(t *testing.T) {
	ask := `{"resultType":"input_required","requestState":"x"}`
	var calls atomic.Int32
	sess, _ := connect(t, legacy(nil, func(p *peer, m jsonrpc.Message) {
		if r, ok := m.(*jsonrpc.Request); ok {
			calls.Add(1)
			p.result(r.ID, ask)
		}
	}), Options{Era: protocol.Legacy})
	result, _, err := sess.Call(bounded(t), "tools/call", nil)
	if err != nil || string(result) != ask || calls.Load() != 1 {
		t.Errorf("Call = %s, %v after %d requests", result, err, calls.Load())
	}
}

// Input requests are answered in key order, whatever order the server
// wrote them in.
func TestInputOrder(t *testing.T) {
	var order []string
	var got []map[string]json.RawMessage
	sess, _ := connect(t, rounds([]string{
		`{"resultType":"input_required","inputRequests":{"z":` + askRoots + `,"a":` + askElicit + `,"m":` + askSample + `}}`,
	}, &got), Options{Handlers: Handlers{
		Elicit: func(ctx context.Context, p *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
			order = append(order, "a")
			return acceptAll(ctx, p)
		},
		Sample: func(ctx context.Context, p *protocol.CreateMessageRequestParams) (*protocol.CreateMessageResult, error) {
			order = append(order, "m")
			return sampleAnswer(ctx, p)
		},
		Roots: func(ctx context.Context) (*protocol.ListRootsResult, error) {
			order = append(order, "z")
			return rootsAnswer(ctx)
		},
	}})
	if _, _, err := sess.Call(bounded(t), "tools/call", nil); err != nil {
		t.Fatal(err)
	}
	if strings.Join(order, "") != "amz" {
		t.Errorf("answered in the order %q, want a, m, z", order)
	}
}
