package mcp_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

var nameForm = protocol.RequestedSchema{
	Properties: map[string]protocol.PrimitiveSchemaDefinition{"name": {String: &protocol.StringSchema{}}},
	Required:   []string{"name"},
}

// greetTool asks for a name and the roots in one round, then greets.
func greetTool() tool.Tool {
	return rawTool("greet", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		name, err1 := ask.Elicit(ctx, "What is your name?", nameForm, ask.Key("user_name"))
		roots, err2 := ask.Roots(ctx, ask.Key("client_roots"))
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		if !name.Accepted() {
			return tool.TextResult("no name: " + string(name.Action)), nil
		}
		return tool.TextResult(fmt.Sprintf("Hello, %v! (%d roots)", name.Content["name"], len(roots))), nil
	})
}

// stepsTool asks twice, the second question depending on the first
// answer, and counts its runs with Remember.
func stepsTool() tool.Tool {
	return rawTool("steps", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		var runs int
		ask.Recall(ctx, "runs", &runs)
		ask.Remember(ctx, "runs", runs+1)
		first, err := ask.Elicit(ctx, "Step 1: What is your name?", nameForm, ask.Key("step1"))
		if err != nil {
			return nil, err
		}
		second, err := ask.Elicit(ctx, fmt.Sprintf("Step 2: %v, your favorite color?", first.Content["name"]), protocol.RequestedSchema{
			Properties: map[string]protocol.PrimitiveSchemaDefinition{"color": {String: &protocol.StringSchema{}}},
		}, ask.Key("step2"))
		if err != nil {
			return nil, err
		}
		return tool.TextResult(fmt.Sprintf("%v likes %v (runs %d)", first.Content["name"], second.Content["color"], runs+1)), nil
	})
}

var askCaps = map[string]any{"elicitation": map[string]any{}, "roots": map[string]any{}, "sampling": map[string]any{}}

func modernCall(id int64, name string, args any, extra map[string]any) *jsonrpc.Request {
	p := map[string]any{"name": name, "_meta": modernMeta(map[string]any{protocol.MetaClientCapabilities: askCaps})}
	if args != nil {
		p["arguments"] = args
	}
	for k, v := range extra {
		p[k] = v
	}
	raw, _ := json.Marshal(p)
	return &jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: "tools/call", Params: raw}
}

func inputRequired(t *testing.T, r *jsonrpc.Response) protocol.InputRequiredResult {
	t.Helper()
	var out protocol.Outcome[protocol.CallToolResult]
	if r.Error != nil {
		t.Fatalf("error %d: %s", r.Error.Code, r.Error.Message)
	}
	if err := json.Unmarshal(r.Result, &out); err != nil || out.InputRequired == nil {
		t.Fatalf("want input_required, got %s (%v)", r.Result, err)
	}
	return *out.InputRequired
}

func TestInputRequiredRoundTrip(t *testing.T) {
	c := start(t, newServer(t, nil, greetTool()))
	r := c.send2(modernCall(1, "greet", nil, nil))
	ir := inputRequired(t, r)
	if len(ir.InputRequests) != 2 || ir.InputRequests["user_name"].Elicit == nil || ir.InputRequests["client_roots"].ListRoots == nil || ir.RequestState == "" {
		t.Fatalf("round 1: %s", r.Result)
	}
	answers := map[string]any{
		"user_name":    map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}},
		"client_roots": map[string]any{"roots": []any{map[string]any{"uri": "file:///w"}}},
		"extra":        "ignored, whatever it is",
	}
	r = c.send2(modernCall(2, "greet", nil, map[string]any{"inputResponses": answers, "requestState": ir.RequestState}))
	if !strings.Contains(string(r.Result), `Hello, Ada! (1 roots)`) || !strings.Contains(string(r.Result), `"resultType":"complete"`) {
		t.Fatalf("round 2: %s %v", r.Result, r.Error)
	}

	// A retry without one of the answers is asked again for what is missing.
	r = c.send2(modernCall(3, "greet", nil, map[string]any{"inputResponses": map[string]any{"client_roots": answers["client_roots"]}, "requestState": ir.RequestState}))
	again := inputRequired(t, r)
	if len(again.InputRequests) != 1 || again.InputRequests["user_name"].Elicit == nil {
		t.Fatalf("missing answer: %s", r.Result)
	}
	// The new state carries the roots answered before.
	r = c.send2(modernCall(4, "greet", nil, map[string]any{"inputResponses": map[string]any{"user_name": map[string]any{"action": "decline"}}, "requestState": again.RequestState}))
	if !strings.Contains(string(r.Result), "no name: decline") {
		t.Fatalf("decline: %s %v", r.Result, r.Error)
	}
}

func TestInputRequiredStateRefused(t *testing.T) {
	srv := newServer(t, &mcp.Options{InputStateTTL: 50 * time.Millisecond}, greetTool())
	c := start(t, srv)
	ir := inputRequired(t, c.send2(modernCall(1, "greet", map[string]any{"a": 1}, nil)))
	answers := map[string]any{"user_name": map[string]any{"action": "cancel"}, "client_roots": map[string]any{"roots": []any{}}}
	tampered := []byte(ir.RequestState)
	tampered[len(tampered)/2] ^= 1
	cases := []struct {
		name  string
		args  any
		state string
		resp  any
		want  string
	}{
		{"tampered", map[string]any{"a": 1}, string(tampered), answers, "requestState is not valid"},
		{"other arguments", map[string]any{"a": 2}, ir.RequestState, answers, "belongs to another request"},
		{"garbage answer", map[string]any{"a": 1}, ir.RequestState, map[string]any{"user_name": map[string]any{"roots": []any{}}}, `inputResponses["user_name"] does not answer elicitation/create`},
		{"not an object", map[string]any{"a": 1}, ir.RequestState, "nope", `"inputResponses" must be an object`},
	}
	for i, tc := range cases {
		r := c.send2(modernCall(int64(10+i), "greet", tc.args, map[string]any{"inputResponses": tc.resp, "requestState": tc.state}))
		if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(r.Error.Message, tc.want) {
			t.Errorf("%s: %s %+v", tc.name, r.Result, r.Error)
		}
	}
	// Arguments re-encoded with other spacing and key order are the same.
	r := c.send2(modernCall(20, "greet", json.RawMessage(`{ "a" : 1 }`), map[string]any{"inputResponses": answers, "requestState": ir.RequestState}))
	if r.Error != nil || !strings.Contains(string(r.Result), "no name: cancel") {
		t.Errorf("re-encoded arguments: %s %+v", r.Result, r.Error)
	}
	time.Sleep(80 * time.Millisecond)
	r = c.send2(modernCall(21, "greet", map[string]any{"a": 1}, map[string]any{"inputResponses": answers, "requestState": ir.RequestState}))
	if r.Error == nil || !strings.Contains(r.Error.Message, "expired") {
		t.Errorf("expired: %s %+v", r.Result, r.Error)
	}
}

// Servers that share a StateKey accept each other's state; a server with
// another key refuses it.
func TestInputStateKey(t *testing.T) {
	answers := map[string]any{"user_name": map[string]any{"action": "cancel"}, "client_roots": map[string]any{"roots": []any{}}}
	key := []byte("one key for every instance, 32+ bytes")
	a := start(t, newServer(t, &mcp.Options{StateKey: key}, greetTool()))
	st := inputRequired(t, a.send2(modernCall(1, "greet", nil, nil))).RequestState
	b := start(t, newServer(t, &mcp.Options{StateKey: key}, greetTool()))
	if r := b.send2(modernCall(2, "greet", nil, map[string]any{"inputResponses": answers, "requestState": st})); r.Error != nil {
		t.Errorf("shared key: %+v", r.Error)
	}
	d := start(t, newServer(t, &mcp.Options{StateKey: []byte("another key, also 32 bytes or more")}, greetTool()))
	if r := d.send2(modernCall(3, "greet", nil, map[string]any{"inputResponses": answers, "requestState": st})); r.Error == nil {
		t.Errorf("another key accepted: %s", r.Result)
	}
}

func TestInputRequiredMultiRound(t *testing.T) {
	c := start(t, newServer(t, nil, stepsTool()))
	ir := inputRequired(t, c.send2(modernCall(1, "steps", nil, nil)))
	if ir.InputRequests["step1"].Elicit == nil || len(ir.InputRequests) != 1 {
		t.Fatalf("round 1: %+v", ir)
	}
	ir2 := inputRequired(t, c.send2(modernCall(2, "steps", nil, map[string]any{
		"inputResponses": map[string]any{"step1": map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}}},
		"requestState":   ir.RequestState,
	})))
	if f := ir2.InputRequests["step2"].Elicit; f == nil || !strings.Contains(f.Form.Message, "Ada") || ir2.RequestState == ir.RequestState {
		t.Fatalf("round 2: %+v", ir2)
	}
	r := c.send2(modernCall(3, "steps", nil, map[string]any{
		"inputResponses": map[string]any{"step2": map[string]any{"action": "accept", "content": map[string]any{"color": "green"}}},
		"requestState":   ir2.RequestState,
	}))
	if !strings.Contains(string(r.Result), "Ada likes green (runs 3)") {
		t.Fatalf("round 3: %s %+v", r.Result, r.Error)
	}
}

func TestInputCapabilities(t *testing.T) {
	sampler := rawTool("sample", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		text, err := ask.SampleText(ctx, "Say hi", 10)
		if err != nil {
			return nil, err
		}
		return tool.TextResult(text), nil
	})
	c := start(t, newServer(t, nil, sampler))
	raw, _ := json.Marshal(map[string]any{"name": "sample", "_meta": modernMeta(nil)})
	r := c.send2(&jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: raw})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeMissingRequiredClientCapability || !strings.Contains(string(r.Error.Data), `"requiredCapabilities":{"sampling":{}}`) {
		t.Fatalf("undeclared sampling: %s %+v", r.Result, r.Error)
	}
	ir := inputRequired(t, c.send2(modernCall(2, "sample", nil, nil)))
	for key, q := range ir.InputRequests {
		if q.CreateMessage == nil || q.CreateMessage.MaxTokens != 10 || !strings.HasPrefix(key, "sampling-") {
			t.Errorf("sampling request %s: %+v", key, q)
		}
	}
}

// In the legacy era the same handler's questions are requests to the
// client, and roots are cached until the client says they changed.
func TestInputLegacy(t *testing.T) {
	c := start(t, newServer(t, nil, greetTool()))
	c.initializeWith("2025-11-25", askCaps)
	roots := 0
	for i := int64(1); i <= 3; i++ {
		if i == 3 {
			c.send(&jsonrpc.Notification{Method: "notifications/roots/list_changed"})
		}
		c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(i), Method: "tools/call", Params: json.RawMessage(`{"name":"greet"}`)})
		for done := false; !done; {
			switch m := c.next(2 * time.Second).(type) {
			case *jsonrpc.Request:
				switch m.Method {
				case "roots/list":
					roots++
					c.send(&jsonrpc.Response{ID: m.ID, Result: json.RawMessage(`{"roots":[{"uri":"file:///a"},{"uri":"file:///b"}]}`)})
				case "elicitation/create":
					if !strings.Contains(string(m.Params), `"requestedSchema":{"type":"object"`) {
						t.Fatalf("elicitation: %s", m.Params)
					}
					c.send(&jsonrpc.Response{ID: m.ID, Result: json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`)})
				default:
					t.Fatalf("request: %s %s", m.Method, m.Params)
				}
			case *jsonrpc.Response:
				if !strings.Contains(string(m.Result), "Hello, Ada! (2 roots)") {
					t.Fatalf("call %d: %s %+v", i, m.Result, m.Error)
				}
				done = true
			}
		}
	}
	if roots != 2 {
		t.Errorf("roots/list sent %d times, want 2 (cached, then refreshed after list_changed)", roots)
	}
}

// An answer of the right kind with values the schema does not allow is
// refused before the handler runs.
func TestInputAnswerShapes(t *testing.T) {
	c := start(t, newServer(t, nil, greetTool()))
	ir := inputRequired(t, c.send2(modernCall(1, "greet", nil, nil)))
	for i, bad := range []map[string]any{
		{"user_name": map[string]any{"action": "maybe"}},
		{"client_roots": map[string]any{"roots": []any{map[string]any{"name": "no uri"}}}},
	} {
		r := c.send2(modernCall(int64(2+i), "greet", nil, map[string]any{"inputResponses": bad, "requestState": ir.RequestState}))
		if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("%v: %s %+v", bad, r.Result, r.Error)
		}
	}
}

// A handler that cannot work without a capability is answered -32021 even
// while other questions of its run are unanswered.
func TestInputCapabilityWins(t *testing.T) {
	both := rawTool("both", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		_, err1 := ask.Elicit(ctx, "Name?", nameForm)
		_, err2 := ask.SampleText(ctx, "Hi", 5)
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		return tool.TextResult("done"), nil
	})
	c := start(t, newServer(t, nil, both))
	raw, _ := json.Marshal(map[string]any{"name": "both", "_meta": modernMeta(map[string]any{
		protocol.MetaClientCapabilities: map[string]any{"elicitation": map[string]any{}}})})
	r := c.send2(&jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: raw})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeMissingRequiredClientCapability {
		t.Fatalf("want -32021, got %s %+v", r.Result, r.Error)
	}
}

// An unusable roots answer is not cached: the next call asks again.
func TestInputLegacyRootsNotCachedWhenBad(t *testing.T) {
	lister := rawTool("roots", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		roots, err := ask.Roots(ctx)
		if err != nil {
			return nil, err
		}
		return tool.TextResult(fmt.Sprint(len(roots))), nil
	})
	c := start(t, newServer(t, nil, lister))
	c.initializeWith("2025-11-25", askCaps)
	for i, answer := range []string{`{"roots":[{"name":"no uri"}]}`, `{"roots":[{"uri":"file:///a"}]}`} {
		c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(int64(i)), Method: "tools/call", Params: json.RawMessage(`{"name":"roots"}`)})
		req := c.serverRequest()
		c.send(&jsonrpc.Response{ID: req.ID, Result: json.RawMessage(answer)})
		r := c.await(jsonrpc.Int64ID(int64(i)))
		if isErr := strings.Contains(string(r.Result), `"isError":true`); isErr != (i == 0) {
			t.Errorf("call %d: %s", i, r.Result)
		}
	}
}

// A 2025-06-18 client gets titled choices as enum with enumNames, and a
// multiple choice is the handler's error, never a form it cannot show.
func TestInputFormProjection(t *testing.T) {
	type choices struct {
		Size string `json:"size" jsonschema:"enum=s|m" titles:"Small|Medium"`
	}
	type multi struct {
		Tags []string `json:"tags" jsonschema:"enum=a|b"`
	}
	pick := tool.New("pick", "Picks.", func(ctx context.Context, _ struct{}) (string, error) {
		r, err := ask.ElicitAs[choices](ctx, "Size?")
		return r.Content.Size, err
	})
	tags := tool.New("tags", "Tags.", func(ctx context.Context, _ struct{}) (string, error) {
		_, err := ask.ElicitAs[multi](ctx, "Tags?")
		return "", err
	})
	c := start(t, newServer(t, nil, pick, tags))
	c.initializeWith("2025-06-18", askCaps)
	c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(`{"name":"pick"}`)})
	req := c.serverRequest()
	if !strings.Contains(string(req.Params), `"enum":["s","m"],"enumNames":["Small","Medium"]`) || strings.Contains(string(req.Params), "oneOf") {
		t.Errorf("projected form: %s", req.Params)
	}
	c.send(&jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{"action":"accept","content":{"size":"m"}}`)})
	if r := c.await(jsonrpc.Int64ID(1)); !strings.Contains(string(r.Result), `"text":"m"`) {
		t.Errorf("pick: %s %+v", r.Result, r.Error)
	}
	r := c.request(jsonrpc.Int64ID(2), "tools/call", map[string]any{"name": "tags"})
	if !strings.Contains(string(r.Result), "multiple choice") || !strings.Contains(string(r.Result), `"isError":true`) {
		t.Errorf("tags: %s %+v", r.Result, r.Error)
	}
}
