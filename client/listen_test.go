package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

func TestListen(t *testing.T) {
	for _, e := range eras[:2] {
		t.Run(e.name, func(t *testing.T) {
			srv := testServer()
			c := connect(t, srv, &client.Options{Era: e.era})
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			yes := true
			added := false
			var got []string
			for n, err := range c.Listen(ctx, protocol.SubscriptionFilter{ToolsListChanged: &yes}) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, n.Method)
				if !added {
					// the stream is open: its acknowledgement came first.
					added = true
					srv.MustAddTool(tool.New("late", "Added late.", func(context.Context, struct{}) (string, error) { return "", nil }))
				}
				if n.Method == protocol.NotificationToolListChanged {
					break
				}
			}
			if len(got) == 0 || got[len(got)-1] != protocol.NotificationToolListChanged {
				t.Fatalf("listen got %v", got)
			}
			if got[0] != protocol.NotificationSubscriptionsAcknowledged {
				t.Fatalf("modern listen began with %v", got)
			}
			names := map[string]bool{}
			for _, tl := range collect(t, c.Tools(ctx)) {
				names[tl.Name] = true
			}
			if !names["late"] {
				t.Fatalf("the tool added is not listed after the change: %v", names)
			}
		})
	}
}

func TestListenResource(t *testing.T) {
	for _, e := range eras[:2] {
		t.Run(e.name, func(t *testing.T) {
			srv := testServer()
			c := connect(t, srv, &client.Options{Era: e.era})
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			if _, err := c.ReadResource(ctx, "file:///readme"); err != nil {
				t.Fatal(err)
			}
			var got []string
			for n, err := range c.Listen(ctx, protocol.SubscriptionFilter{ResourceSubscriptions: []string{"file:///readme"}}) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, n.Method)
				if n.Method == protocol.NotificationSubscriptionsAcknowledged {
					srv.ResourceUpdated("file:///other")
					srv.ResourceUpdated("file:///readme")
				}
				if n.Method == protocol.NotificationResourceUpdated {
					break
				}
			}
			if len(got) != 2 {
				t.Fatalf("listen got %v, want the acknowledgement and one update", got)
			}
		})
	}
}
