package redisbroker

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpwire/mcpwire/dpop"
)

// NewReplayCache returns a dpop.ReplayCache over Redis (dpop.Options.Replay),
// shared by the instances of a deployment: a DPoP proof accepted by one is
// a replay to every other (RFC 9449 §11.1). Each id is a key, prefix+id
// (prefix "mcpwire:dpop:" when empty), set with SET NX and an expiry (PX)
// at its time, so that checking and recording are one atomic step and
// Redis forgets it on its own. rdb stays the caller's.
//
// The expiry is computed with this process's clock. While Redis is
// unreachable Remember fails, and the proofs cannot be checked (the
// resource server answers 503) rather than being let through unrecorded.
func NewReplayCache(rdb redis.UniversalClient, prefix string) dpop.ReplayCache {
	if prefix == "" {
		prefix = "mcpwire:dpop:"
	}
	return &replayCache{rdb: rdb, prefix: prefix}
}

// replayCache is NewReplayCache's cache.
type replayCache struct {
	rdb    redis.UniversalClient
	prefix string
}

// Remember implements dpop.ReplayCache.
func (c *replayCache) Remember(ctx context.Context, id string, until time.Time) (bool, error) {
	ttl := time.Until(until)
	if ttl < time.Millisecond {
		return true, nil // over already: nothing to remember
	}
	fresh, err := c.rdb.SetNX(ctx, c.prefix+id, 1, ttl).Result()
	if err != nil {
		return false, fmt.Errorf("redisbroker: DPoP replay cache: %w", err)
	}
	return fresh, nil
}
