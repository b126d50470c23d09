package gateway_test

import (
	"context"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// What an upstream's task asks reaches the caller of the gateway's task
// and the answer goes back: the task's round is answered, not deferred.
func TestRelayedTaskAsks(t *testing.T) {
	up := mcp.NewServer(mcp.Implementation{Name: "up", Version: "1"}, &mcp.Options{Logger: quiet, TaskPollInterval: 20 * time.Millisecond})
	if err := up.AddTaskTool(tool.New("confirm", "Asks, as a task.", func(ctx context.Context, _ struct{}) (string, error) {
		reply, err := ask.Elicit(ctx, "Go on?", protocol.RequestedSchema{
			Properties: map[string]protocol.PrimitiveSchemaDefinition{"sure": {Boolean: &protocol.BooleanSchema{}}}})
		if err != nil {
			return "", err
		}
		return string(reply.Action), nil
	}), mcp.TaskToolOptions{Support: mcp.TaskRequired}); err != nil {
		t.Fatal(err)
	}
	g := newGateway(t, &gateway.Config{NoNamespace: true, Upstreams: []gateway.Upstream{{Name: "up", Server: up}}})
	c := serveGatewayWith(t, g, &client.Options{Era: protocol.Modern, Logger: quiet, Tasks: true,
		Elicit: func(context.Context, *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
			return &protocol.ElicitResult{Action: protocol.ElicitAccept, Content: protocol.Object{"sure": json.RawMessage("true")}}, nil
		}})
	r, err := c.CallTool(bounded(t), "confirm", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := textOf(t, r); got != "accept" {
		t.Errorf("confirm answered %q, want accept", got)
	}
}
