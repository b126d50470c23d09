package main

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/redisbroker"
)

// joinFanOut gives opts the Redis broker and task store of the Redis
// server -redis names, when it names one, and returns what closes them.
// Redis need not be up yet: the broker connects, and reconnects after an
// outage, on its own (the task store's calls fail meanwhile); the first
// ping is only waited for briefly, so that a wrong address is logged at
// start.
func (s *settings) joinFanOut(opts *mcp.Options) (closeBroker func(), err error) {
	if s.redis == "" {
		return func() {}, nil
	}
	rdb := redis.NewClient(&redis.Options{Addr: s.redis, DialTimeout: time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := rdb.Ping(ctx).Err(); err != nil {
		opts.Logger.Warn("everything: Redis does not answer yet; the fan-out will connect when it does", "redis", s.redis, "error", err)
	}
	opts.Broker = redisbroker.New(rdb, &redisbroker.Options{Logger: opts.Logger})
	opts.TaskStore = redisbroker.NewTaskStore(rdb, nil)
	return func() {
		if err := rdb.Close(); err != nil {
			opts.Logger.Debug("everything: closing the Redis client", "error", err)
		}
	}, nil
}

// sessionIDPrefix is what starts this instance's legacy session ids: its
// name and a dot, so that a load balancer routes a session to it.
func (s *settings) sessionIDPrefix() string {
	if s.instance == "" {
		return ""
	}
	return s.instance + "."
}
