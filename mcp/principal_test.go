package mcp_test

import (
	"context"
	"strings"
	"testing"

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
		c := tool.RequestFrom(ctx).Caller
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
