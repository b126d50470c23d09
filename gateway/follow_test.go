package gateway_test

import (
	"context"
	"slices"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
)

// What the upstream adds and removes after the start reaches the
// gateway's clients, as do updates of the resources they follow: a
// listen stream hears the list changes and the update.
func TestFollowsPromptsResourcesAndUpdates(t *testing.T) {
	for _, era := range []protocol.Era{protocol.Legacy, protocol.Modern} {
		t.Run(era.String(), func(t *testing.T) {
			up := mcp.NewServer(mcp.Implementation{Name: "up", Version: "1"}, &mcp.Options{Logger: quiet,
				DynamicPrompts: true, DynamicResources: true})
			prompt := func(name string) mcp.Prompt {
				return mcp.Prompt{Name: name, Get: func(context.Context, map[string]string) (*mcp.PromptResult, error) {
					return &mcp.PromptResult{Messages: []mcp.PromptMessage{mcp.UserMessage(name)}}, nil
				}}
			}
			up.MustAddResource(mcp.Resource{URI: "test://doc", Name: "doc", Read: mcp.StaticRead("v1")})
			up.MustAddPrompt(prompt("first"))
			g := newGateway(t, &gateway.Config{Upstreams: []gateway.Upstream{{Name: "up", Server: up}}})
			c := serveGateway(t, g, era)
			ctx := bounded(t)

			heard := make(chan *jsonrpc.Notification, 64)
			on := true
			go func() {
				for n, err := range c.Listen(ctx, protocol.SubscriptionFilter{PromptsListChanged: &on, ResourcesListChanged: &on,
					ResourceSubscriptions: []string{"test://doc"}}) {
					if err != nil {
						return
					}
					heard <- n
				}
			}()
			// hear waits for method, doing again what should cause it until
			// it comes: the gateway may not follow the upstream yet.
			hear := func(method string, cause func()) *jsonrpc.Notification {
				t.Helper()
				cause()
				tick := time.NewTicker(250 * time.Millisecond)
				defer tick.Stop()
				for {
					select {
					case n := <-heard:
						if n.Method == method {
							return n
						}
					case <-tick.C:
						cause()
					case <-ctx.Done():
						t.Fatalf("never heard %s", method)
					}
				}
			}
			n := hear(protocol.NotificationResourceUpdated, func() { up.ResourceUpdated("test://doc") })
			var p protocol.ResourceUpdatedNotificationParams
			if json.Unmarshal(n.Params, &p); p.URI != "test://doc" {
				t.Errorf("updated %s, want test://doc", n.Params)
			}

			promptNames := func() []string {
				return names(t, c.Prompts(ctx), func(p *protocol.Prompt) string { return p.Name })
			}
			hear(protocol.NotificationPromptListChanged, func() { up.AddPrompt(prompt("second")) })
			waitFor(t, "up_second listed", func() bool { return slices.Equal(promptNames(), []string{"up_first", "up_second"}) })
			hear(protocol.NotificationPromptListChanged, func() { up.RemovePrompt("first") })
			waitFor(t, "up_first gone", func() bool { return slices.Equal(promptNames(), []string{"up_second"}) })

			hear(protocol.NotificationResourceListChanged, func() {
				up.AddResource(mcp.Resource{URI: "test://late", Name: "late", Read: mcp.StaticRead("late")})
			})
			waitFor(t, "test://late listed", func() bool {
				return slices.Equal(names(t, c.Resources(ctx), func(r *protocol.Resource) string { return r.URI }), []string{"test://doc", "test://late"})
			})
			r, err := c.ReadResource(ctx, "test://late")
			if err != nil || len(r.Contents) != 1 || r.Contents[0].Text == nil || r.Contents[0].Text.Text != "late" {
				t.Fatalf("reading the late resource: %+v, %v", r, err)
			}
		})
	}
}

// waitFor polls ok (a list the client's cache may still hold) for 30 s.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !ok(); {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
