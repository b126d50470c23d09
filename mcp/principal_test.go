package mcp_test

import (
	"context"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// The principal an HTTP middleware puts in the context of Handle is the
// caller every handler sees, in place of Options.Caller; without one the
// handler sees Options.Caller.
func TestPrincipalFromContext(t *testing.T) {
	whoami := rawTool("whoami", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		c := mcp.RequestFrom(ctx).Caller
		if c == nil {
			return tool.TextResult("anonymous"), nil
		}
		return tool.TextResult(c.Subject), nil
	})
	srv := newServer(t, &mcp.Options{Caller: &auth.Principal{Subject: "process"}}, whoami)
	ep := srv.NewEndpoint(mcp.EndpointOptions{Stateless: true})
	defer ep.Close()
	for _, tc := range []struct {
		ctx  context.Context
		want string
	}{
		{context.Background(), "process"},
		{auth.WithPrincipal(context.Background(), &auth.Principal{Subject: "ada"}), "ada"},
	} {
		x := newExchange()
		ep.Handle(tc.ctx, modernRequest(1, "whoami", nil), x.send)
		r := x.wait(t)[0].(*jsonrpc.Response)
		if r.Error != nil || !strings.Contains(string(r.Result), `"text":"`+tc.want+`"`) {
			t.Errorf("want %s: %s %+v", tc.want, r.Result, r.Error)
		}
	}
}

// A listen stream follows only the resources its caller may read: a URI
// that only a template the caller lacks the scopes of matches is not
// honoured, while one the caller may read is.
func TestListenGatedTemplate(t *testing.T) {
	srv := newServer(t, nil)
	read := func(_ context.Context, uri string, _ map[string]string) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextContents(uri, "text/plain", "x")}, nil
	}
	srv.MustAddResourceTemplate(mcp.ResourceTemplate{URITemplate: "test://open/{id}", Name: "open", Read: read})
	srv.MustAddResourceTemplate(mcp.ResourceTemplate{URITemplate: "test://secret/{id}", Name: "secret", Scopes: []string{"ops"}, Read: read})
	ep := srv.NewEndpoint(mcp.EndpointOptions{Stateless: true})
	defer ep.Close()
	for _, tc := range []struct {
		caller *auth.Principal
		want   string
	}{
		{&auth.Principal{Subject: "guest"}, `["test://open/1"]`},
		{&auth.Principal{Subject: "ada", Scopes: []string{"ops"}}, `["test://open/1","test://secret/1"]`},
	} {
		ctx, cancel := context.WithCancel(auth.WithPrincipal(context.Background(), tc.caller))
		got := make(chan jsonrpc.Message, 4)
		params, _ := json.Marshal(map[string]any{"_meta": modernMeta(nil),
			"notifications": map[string]any{"resourceSubscriptions": []string{"test://open/1", "test://secret/1"}}})
		ep.Handle(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "subscriptions/listen", Params: params}, func(m jsonrpc.Message) { got <- m })
		select {
		case m := <-got:
			n, ok := m.(*jsonrpc.Notification)
			if !ok || !strings.Contains(string(n.Params), `"resourceSubscriptions":`+tc.want) {
				t.Errorf("%s: %+v, want resourceSubscriptions %s", tc.caller.Subject, m, tc.want)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("%s: no acknowledgement", tc.caller.Subject)
		}
		cancel()
	}
}
