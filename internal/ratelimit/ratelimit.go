// Package ratelimit is the token bucket the server's rate limits share:
// log messages to a client, completion requests and tool calls per
// caller, and package middleware's RateLimit.
package ratelimit

import (
	"sync"
	"time"
)

// Bucket is a token bucket: perSecond tokens a second, up to burst.
type Bucket struct {
	mu     sync.Mutex
	rate   float64
	burst  float64
	tokens float64
	last   time.Time
}

// NewBucket returns a full bucket.
func NewBucket(perSecond, burst int) *Bucket {
	return &Bucket{rate: float64(perSecond), burst: float64(burst), tokens: float64(burst)}
}

// Allow takes one token, reporting false when the bucket is empty.
func (b *Bucket) Allow() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	if !b.last.IsZero() {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}

// MaxKeys bounds the buckets of a PerKey: past it, it starts afresh,
// which only ever lets a key through early.
const MaxKeys = 10000

// PerKey holds one bucket per key (a caller's subject), each of rate
// tokens a second with bursts of twice that; a rate of zero or less
// allows everything.
type PerKey struct {
	rate    int
	mu      sync.Mutex
	buckets map[string]*Bucket
}

// NewPerKey returns buckets of rate a second.
func NewPerKey(rate int) *PerKey { return &PerKey{rate: rate} }

// Allow takes a token from key's bucket.
func (p *PerKey) Allow(key string) bool {
	if p.rate <= 0 {
		return true
	}
	p.mu.Lock()
	b := p.buckets[key]
	if b == nil {
		if p.buckets == nil || len(p.buckets) >= MaxKeys {
			p.buckets = map[string]*Bucket{}
		}
		b = NewBucket(p.rate, 2*p.rate)
		p.buckets[key] = b
	}
	p.mu.Unlock()
	return b.Allow()
}
