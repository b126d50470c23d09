package mcp_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

type reviewArgs struct {
	Environment string `json:"environment" description:"Where to deploy."`
	Note        string `json:"note,omitempty"`
}

// environments completes deployment targets; production only for an
// operator.
func environments(_ context.Context, req mcp.CompleteRequest) (mcp.CompleteResult, error) {
	values := []string{"development", "staging"}
	if req.Caller.HasScope("operator") {
		values = append(values, "production")
	}
	return mcp.CompletePrefix(values...)(context.Background(), req)
}

func promptServer(t *testing.T, opts *mcp.Options) *mcp.Server {
	t.Helper()
	srv := newServer(t, opts)
	review := mcp.NewPrompt("deployment_review", "Reviews a deployment.",
		func(_ context.Context, in reviewArgs) (*mcp.PromptResult, error) {
			return &mcp.PromptResult{Messages: []mcp.PromptMessage{
				mcp.UserMessage("Review the deployment to " + in.Environment + "."),
				{Role: protocol.RoleAssistant, Content: tool.NewEmbeddedText("test://notes", "text/plain", in.Note)},
			}}, nil
		}, mcp.WithTitle("Deployment review"))
	review.Complete = map[string]mcp.CompleteFunc{"environment": environments}
	srv.MustAddPrompt(review)
	srv.MustAddPrompt(mcp.Prompt{Name: "broken", Get: func(context.Context, map[string]string) (*mcp.PromptResult, error) {
		return &mcp.PromptResult{}, nil
	}})
	srv.MustAddPrompt(mcp.Prompt{Name: "many", Arguments: []mcp.PromptArgument{{Name: "n"}},
		Get: func(context.Context, map[string]string) (*mcp.PromptResult, error) { return nil, errors.New("unused") },
		Complete: map[string]mcp.CompleteFunc{"n": func(context.Context, mcp.CompleteRequest) (mcp.CompleteResult, error) {
			var vs []string
			for i := range 250 {
				vs = append(vs, fmt.Sprint(i))
			}
			return mcp.CompleteResult{Values: vs}, nil
		}},
	})
	return srv
}

func TestPromptsListAndGet(t *testing.T) {
	c := start(t, promptServer(t, nil))
	c.initialize("2025-06-18")
	list := c.request(jsonrpc.Int64ID(1), "prompts/list", nil)
	want := `{"name":"deployment_review","title":"Deployment review","description":"Reviews a deployment.","arguments":[{"name":"environment","description":"Where to deploy.","required":true},{"name":"note"}]}`
	if !strings.Contains(string(list.Result), want) {
		t.Errorf("prompts/list: %s", list.Result)
	}
	get := c.request(jsonrpc.Int64ID(2), "prompts/get", map[string]any{"name": "deployment_review", "arguments": map[string]string{"environment": "staging", "note": "n"}})
	wantGet := `{"messages":[{"role":"user","content":{"type":"text","text":"Review the deployment to staging."}},{"role":"assistant","content":{"type":"resource","resource":{"uri":"test://notes","mimeType":"text/plain","text":"n"}}}]}`
	if string(get.Result) != wantGet {
		t.Errorf("prompts/get:\n got %s\nwant %s", get.Result, wantGet)
	}
	for _, tt := range []struct {
		params map[string]any
		code   int64
		text   string
	}{
		{map[string]any{"name": "nope"}, jsonrpc.CodeInvalidParams, `unknown prompt "nope"`},
		{map[string]any{"name": "deployment_review"}, jsonrpc.CodeInvalidParams, `the required argument "environment" is missing`},
		{map[string]any{"name": "deployment_review", "arguments": map[string]string{"environment": "x", "extra": "y"}}, jsonrpc.CodeInvalidParams, `has no argument "extra"`},
		{map[string]any{"name": "broken"}, jsonrpc.CodeInternalError, "the prompt rendered no messages"},
	} {
		r := c.request(jsonrpc.Int64ID(3), "prompts/get", tt.params)
		if r.Error == nil || r.Error.Code != tt.code || !strings.Contains(r.Error.Message, tt.text) {
			t.Errorf("%v: %+v, want %d %q", tt.params, r.Error, tt.code, tt.text)
		}
	}
}

func TestCompletion(t *testing.T) {
	for _, tt := range []struct {
		caller *auth.Principal
		want   string
	}{
		{nil, `{"completion":{"values":["development","staging"],"total":2}}`},
		{&auth.Principal{Subject: "ops", Scopes: []string{"operator"}}, `{"completion":{"values":["development","staging","production"],"total":3}}`},
	} {
		c := start(t, promptServer(t, &mcp.Options{Caller: tt.caller}))
		c.initialize("2025-11-25")
		r := c.request(jsonrpc.Int64ID(1), "completion/complete", map[string]any{
			"ref": map[string]any{"type": "ref/prompt", "name": "deployment_review"}, "argument": map[string]any{"name": "environment", "value": ""},
		})
		if string(r.Result) != tt.want {
			t.Errorf("caller %+v: %s %v, want %s", tt.caller, r.Result, r.Error, tt.want)
		}
	}
	c := start(t, promptServer(t, &mcp.Options{CompletionRate: 2}))
	c.initialize("2025-11-25")
	call := func(ref map[string]any, arg string) *jsonrpc.Response {
		return c.request(jsonrpc.Int64ID(2), "completion/complete", map[string]any{"ref": ref, "argument": map[string]any{"name": arg, "value": ""}})
	}
	r := call(map[string]any{"type": "ref/prompt", "name": "many"}, "n")
	if !strings.HasSuffix(string(r.Result), `"99"],"total":250,"hasMore":true}}`) || strings.Count(string(r.Result), ",") != 101 {
		t.Errorf("capped: %.80s…%s", r.Result, r.Result[max(0, len(r.Result)-40):])
	}
	for _, tt := range []struct {
		ref  map[string]any
		arg  string
		text string
	}{
		{map[string]any{"type": "ref/prompt", "name": "nope"}, "x", `unknown prompt "nope"`},
		{map[string]any{"type": "ref/prompt", "name": "deployment_review"}, "nope", `has no argument "nope"`},
		{map[string]any{"type": "ref/resource", "uri": "test://x/{id}"}, "id", "no resource template"},
	} {
		if r := call(tt.ref, tt.arg); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(r.Error.Message, tt.text) {
			t.Errorf("%v %s: %+v, want -32602 %q", tt.ref, tt.arg, r.Error, tt.text)
		}
	}
	limited := false
	for range 10 {
		r := call(map[string]any{"type": "ref/prompt", "name": "deployment_review"}, "environment")
		if r.Error != nil && r.Error.Code == jsonrpc.CodeInternalError && string(r.Error.Data) == `{"reason":"rate_limited"}` {
			limited = true
			break
		}
	}
	if !limited {
		t.Error("the completion rate limit never answered")
	}
}

// Completions are declared only with a provider; prompts only with a
// prompt; a template's variables complete through ref/resource.
func TestCompletionCapability(t *testing.T) {
	srv := newServer(t, nil)
	srv.MustAddPrompt(mcp.Prompt{Name: "p", Get: func(context.Context, map[string]string) (*mcp.PromptResult, error) {
		return &mcp.PromptResult{Messages: []mcp.PromptMessage{mcp.UserMessage("x")}}, nil
	}})
	c := start(t, srv)
	c.initialize("2025-11-25")
	r := c.request(jsonrpc.Int64ID(1), "completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "p"}, "argument": map[string]any{"name": "a", "value": ""}})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("completion without providers: %+v", r.Error)
	}
	srv.MustAddResourceTemplate(mcp.ResourceTemplate{URITemplate: "test://items/{id}", Name: "item",
		Read: func(context.Context, string, map[string]string) ([]mcp.ResourceContents, error) {
			return nil, mcp.ErrResourceNotFound
		},
		Complete: map[string]mcp.CompleteFunc{"id": mcp.CompletePrefix("a1", "a2", "b1")}})
	r = c.request(jsonrpc.Int64ID(2), "completion/complete", map[string]any{"ref": map[string]any{"type": "ref/resource", "uri": "test://items/{id}"}, "argument": map[string]any{"name": "id", "value": "a"}})
	if string(r.Result) != `{"completion":{"values":["a1","a2"],"total":2}}` {
		t.Errorf("template completion: %s %v", r.Result, r.Error)
	}
}

func TestAddPromptRefuses(t *testing.T) {
	srv := newServer(t, nil)
	get := func(context.Context, map[string]string) (*mcp.PromptResult, error) { return nil, nil }
	for _, tt := range []struct {
		p    mcp.Prompt
		want string
	}{
		{mcp.Prompt{Name: "bad name", Get: get}, "is invalid"},
		{mcp.Prompt{Name: "p"}, "has no render function"},
		{mcp.Prompt{Name: "p", Get: get, Arguments: []mcp.PromptArgument{{Name: "a"}, {Name: "a"}}}, `argument "a" is listed twice`},
		{mcp.Prompt{Name: "p", Get: get, Complete: map[string]mcp.CompleteFunc{"x": mcp.CompletePrefix()}}, `"x", which is not one of its arguments`},
		{mcp.NewPrompt("p", "", func(context.Context, struct{ N int }) (*mcp.PromptResult, error) { return nil, nil }), "prompt arguments are strings"},
		{mcp.NewPrompt("p", "", func(context.Context, struct {
			Speed string `json:"speed" jsonschema:"enum=fast,slow"`
		}) (*mcp.PromptResult, error) {
			return nil, nil
		}), `enum values are separated by "|": enum=fast|slow`},
	} {
		if err := srv.AddPrompt(tt.p); !errors.Is(err, mcp.ErrInvalidPrompt) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.p.Name, err, tt.want)
		}
	}
	srv.MustAddPrompt(mcp.Prompt{Name: "p", Get: get})
	if err := srv.AddPrompt(mcp.Prompt{Name: "p", Get: get}); !errors.Is(err, mcp.ErrDuplicatePrompt) {
		t.Errorf("duplicate: %v", err)
	}
}

// A prompt reads its arguments' struct tags as a tool does: a description
// tag, a bare jsonschema tag, the invopop-style items, and omitempty.
func TestNewPromptArgumentTags(t *testing.T) {
	p := mcp.NewPrompt("p", "", func(context.Context, struct {
		City  string `json:"city" jsonschema:"the city to look up"`
		Day   string `json:"day,omitempty" description:"Which day."`
		Units string `json:"units,omitempty" jsonschema:"required,description=metric or imperial\\, say which"`
		Note  string `json:"note,omitempty"`
	}) (*mcp.PromptResult, error) {
		return nil, nil
	})
	want := []mcp.PromptArgument{
		{Name: "city", Description: "the city to look up", Required: true},
		{Name: "day", Description: "Which day."},
		{Name: "units", Description: "metric or imperial, say which", Required: true},
		{Name: "note"},
	}
	if !slices.Equal(p.Arguments, want) {
		t.Errorf("arguments = %+v\nwant %+v", p.Arguments, want)
	}
}
