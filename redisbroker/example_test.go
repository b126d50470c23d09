package redisbroker_test

import (
	"log/slog"

	"github.com/redis/go-redis/v9"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/redisbroker"
)

// Each instance of a deployment joins the fan-out through the Redis they
// share: a resource update raised on any instance then reaches the listen
// streams and legacy subscribers held on every one. It needs a Redis at
// 127.0.0.1:6379, so it is compiled but not run.
func Example() {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	defer rdb.Close()
	broker := redisbroker.New(rdb, &redisbroker.Options{Channel: "reports:events"})
	srv := mcp.NewServer(mcp.Implementation{Name: "reports", Version: "1"}, &mcp.Options{Broker: broker})
	defer srv.Close() // publishes what is still queued, and unsubscribes

	// ... serve srv (package mcphttp) behind the load balancer; then,
	// wherever a report changes, on whichever instance:
	srv.ResourceUpdated("file:///reports/today.md")

	// What Redis outages cost, for a metrics endpoint or a log line.
	s := broker.Stats()
	slog.Info("fan-out", "published", s.Published, "lost", s.Lost(), "restored", s.Restored)
}
