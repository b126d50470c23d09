package client_test

import (
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/protocol"
)

func TestCache(t *testing.T) {
	for _, tc := range []struct {
		name  string
		hints string
		opts  client.Options
		want  int // tools/list requests for three listings
	}{
		{"public", `"ttlMs":60000,"cacheScope":"public"`, client.Options{}, 1},
		{"private", `"ttlMs":60000,"cacheScope":"private"`, client.Options{}, 1},
		{"no ttl", `"ttlMs":0,"cacheScope":"public"`, client.Options{}, 3},
		{"no ttl member", `"cacheScope":"public"`, client.Options{}, 3},
		{"NoCache", `"ttlMs":60000,"cacheScope":"public"`, client.Options{NoCache: true}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list := `{"resultType":"complete",` + tc.hints + `,"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`
			c, f := serveFake(t, protocol.Modern, map[string]string{protocol.MethodListTools: list}, &tc.opts)
			ctx := bounded(t)
			for range 3 {
				if len(collect(t, c.Tools(ctx))) != 1 {
					t.Fatal("tools")
				}
			}
			if got := f.count(protocol.MethodListTools); got != tc.want {
				t.Fatalf("%d tools/list requests, want %d", got, tc.want)
			}
		})
	}
}

func TestCacheInvalidation(t *testing.T) {
	list := `{"resultType":"complete","ttlMs":60000,"cacheScope":"public","tools":[{"name":"t","inputSchema":{"type":"object"}}]}`
	c, f := serveFake(t, protocol.Modern, map[string]string{protocol.MethodListTools: list}, nil)
	ctx := bounded(t)
	collect(t, c.Tools(ctx))
	collect(t, c.Tools(client.Fresh(ctx))) // skips the cache
	if got := f.count(protocol.MethodListTools); got != 2 {
		t.Fatalf("Fresh: %d requests, want 2", got)
	}
	f.notify(protocol.NotificationToolListChanged, `{"_meta":{"io.modelcontextprotocol/subscriptionId":1}}`)
	deadline := time.Now().Add(10 * time.Second)
	for f.count(protocol.MethodListTools) == 2 && time.Now().Before(deadline) {
		collect(t, c.Tools(ctx)) // until the notification is read, the cache answers
		time.Sleep(5 * time.Millisecond)
	}
	if got := f.count(protocol.MethodListTools); got != 3 {
		t.Fatalf("after list_changed: %d requests, want 3", got)
	}
}
