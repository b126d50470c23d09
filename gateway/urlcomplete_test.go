package gateway_test

import (
	"context"
	"testing"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"

	json "github.com/goccy/go-json"
)

// A legacy upstream's URL elicitation reaches a legacy caller under an id
// the gateway gave it, and the upstream's completion notification reaches
// the caller naming that id, not the upstream's.
func TestURLElicitationCompletes(t *testing.T) {
	upstreamID := make(chan string, 1)
	up := mcp.NewServer(mcp.Implementation{Name: "up", Version: "1"}, &mcp.Options{Logger: quiet})
	up.MustAddTool(tool.New("visit", "Asks for a visit.", func(ctx context.Context, _ struct{}) (string, error) {
		reply, err := ask.ElicitURL(ctx, "Sign the form.", "https://example.com/form")
		if err != nil {
			return "", err
		}
		upstreamID <- reply.ElicitationID
		if !up.CompleteElicitation(reply.ElicitationID) {
			t.Error("the upstream did not know its own elicitation")
		}
		return string(reply.Action), nil
	}))
	g := newGateway(t, &gateway.Config{Upstreams: []gateway.Upstream{{Name: "up", Server: up, ProtocolVersion: "2025-11-25"}}})

	callerID := make(chan string, 1)
	completed := make(chan string, 1)
	c := serveGatewayWith(t, g, &client.Options{Era: protocol.Legacy, Logger: quiet, ElicitURL: true,
		Elicit: func(_ context.Context, p *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
			if p.URL == nil {
				t.Errorf("the caller was asked %+v, want a URL", p)
				return &protocol.ElicitResult{Action: "decline"}, nil
			}
			callerID <- p.URL.ElicitationID
			return &protocol.ElicitResult{Action: "accept"}, nil
		},
		OnNotification: func(n *jsonrpc.Notification) {
			if n.Method != protocol.NotificationElicitationComplete {
				return
			}
			var p protocol.ElicitationCompleteNotificationParams
			json.Unmarshal(n.Params, &p)
			completed <- p.ElicitationID
		}})
	res, err := c.CallTool(bounded(t), "up_visit", nil)
	if err != nil || (res.IsError != nil && *res.IsError) {
		t.Fatalf("up_visit: %+v, %v", res, err)
	}
	theirs, mine := <-upstreamID, <-callerID
	if mine == "" || theirs == "" || mine == theirs {
		t.Fatalf("the caller's elicitation id %q, the upstream's %q: want two ids of their own", mine, theirs)
	}
	select {
	case got := <-completed:
		if got != mine {
			t.Errorf("the completion named %q, want the caller's id %q", got, mine)
		}
	case <-bounded(t).Done():
		t.Fatal("the completion never reached the caller")
	}
}
