package mcp

import (
	"context"
	"time"

	json "github.com/goccy/go-json"
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

// DefaultCacheHint applies to every cacheable method without its own hint:
// one minute, private. Private is the safe scope: a server that adds
// per-user data later cannot leak it through a shared cache.
var DefaultCacheHint = CacheHint{TTL: time.Minute}

// cacheable lists the methods whose complete results carry cache hints.
var cacheable = map[string]bool{
	"server/discover": true, "tools/list": true, "prompts/list": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
}

// modernFields are the fields every modern result carries.
type modernFields struct {
	ResultType string          `json:"resultType,omitempty"`
	TTLMs      *int64          `json:"ttlMs,omitempty"`
	CacheScope string          `json:"cacheScope,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// modernFields returns resultType, the serverInfo _meta and, for cacheable
// methods, the cache hint; the zero value for legacy requests.
func (s *Server) modernFields(r *request) modernFields {
	if !r.modern() {
		return modernFields{}
	}
	f := modernFields{ResultType: "complete", Meta: s.modernMeta}
	if cacheable[r.method] {
		h, ok := s.opts.CacheHints[r.method]
		if !ok {
			h = DefaultCacheHint
		}
		ttl := h.TTL.Milliseconds()
		f.TTLMs, f.CacheScope = &ttl, "private"
		if h.Public {
			f.CacheScope = "public"
		}
	}
	return f
}

type discoverResult struct {
	modernFields
	SupportedVersions []string       `json:"supportedVersions"`
	Capabilities      map[string]any `json:"capabilities"`
	Instructions      string         `json:"instructions,omitempty"`
}

func handleDiscover(_ context.Context, ss *session, _ *call, r *request) (any, error) {
	return discoverResult{
		modernFields:      ss.srv.modernFields(r),
		SupportedVersions: SupportedVersions,
		Capabilities:      ss.srv.capabilities(r.rev),
		Instructions:      ss.srv.opts.Instructions,
	}, nil
}
