package mcp

import (
	"context"
	"time"

	"github.com/mcpwire/mcpwire/protocol"
)

// CacheHint is the ttlMs and cacheScope a cacheable modern result carries.
type CacheHint struct {
	// TTL is how long the result may be reused; 0 means immediately stale.
	TTL time.Duration
	// Public marks a result with no user-specific data, shareable across
	// users ("public"); otherwise reuse stays within one authorization
	// context ("private").
	Public bool
}

// defaultCacheHint applies to every cacheable method without its own hint
// in Options.CacheHints: one minute, private. Private is the safe scope: a
// server that adds per-user data later cannot leak it through a shared
// cache.
var defaultCacheHint = CacheHint{TTL: time.Minute}

// The result types' access to their envelope and cache hints, as package
// protocol provides it on every result type.
type (
	enveloped interface {
		ResultEnvelope() *protocol.Envelope
	}
	hinted interface {
		ResultCacheHints() *protocol.CacheHints
	}
)

// fillEnvelope is the one place where a modern result gets what every
// 2026-07-28 result carries: resultType "complete" (unless the handler set
// another), the server's identity in _meta, and, for cacheable methods,
// ttlMs and cacheScope (the method's, unless the handler set the result's
// own, as a resource with its own CacheHint does). Legacy results are left as they are.
func (s *Server) fillEnvelope(result any, r *request) {
	if !r.modern() {
		return
	}
	if e, ok := result.(enveloped); ok {
		env := e.ResultEnvelope()
		if env.ResultType == "" {
			env.ResultType = protocol.ResultTypeComplete
		}
		if env.Meta == nil {
			env.Meta = &protocol.ResultMeta{}
		}
		env.Meta.ServerInfo = &s.modernInfo
		delete(env.Meta.Other, protocol.MetaServerInfo) // the server's own identity wins
	}
	if h, ok := result.(hinted); ok && s.cacheable(r.method) {
		if hints := h.ResultCacheHints(); hints.TTLMs == nil { // a resource's own hint wins
			*hints = s.cacheHints(r.method)
		}
	}
}

// cacheHints returns the configured hint of a cacheable method.
func (s *Server) cacheHints(method string) protocol.CacheHints {
	h, ok := s.opts.CacheHints[method]
	if !ok {
		h = defaultCacheHint
	}
	scope := protocol.CacheScopePrivate
	if h.Public {
		scope = protocol.CacheScopePublic
	}
	return protocol.CacheHints{TTLMs: protocol.TTL(h.TTL), CacheScope: scope}
}

func handleDiscover(_ context.Context, ss *session, _ *call, r *request) (any, error) {
	return &protocol.DiscoverResult{
		SupportedVersions: supportedVersions,
		Capabilities:      ss.srv.capabilities(r.rev),
		Instructions:      ss.srv.opts.Instructions,
	}, nil
}
