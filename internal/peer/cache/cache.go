// Package cache keeps the results a 2026-07-28 server marks cacheable, for
// the client: the specification's Caching section (basic/utilities) lets a
// client reuse the complete result of server/discover, tools/list,
// prompts/list, resources/list, resources/templates/list and
// resources/read for its ttlMs, like Cache-Control: max-age.
//
// The rules it follows:
//
//   - The key is the method and the params that shape the result (a
//     resource's uri, a page's cursor): params without _meta, compared as
//     JSON values, so key order and spacing do not matter.
//   - A "private" result is reused only within the same authorization
//     context, which the caller names (a principal, a token's hash; "" for
//     an unauthenticated connection); a "public" one by every caller.
//   - Nothing is kept from an input_required result, from a retry that
//     carries inputResponses or requestState, from a result whose ttlMs is
//     0, missing or not an integer ≥ 0, or whose cacheScope is neither
//     "public" nor "private": such a server gets no benefit of the doubt.
//   - A list-changed notification drops the entries of its lists, and
//     notifications/resources/updated the reads of its uri.
//   - A ttlMs over a day counts as a day.
//   - At most Max entries are kept; a Put beyond it first drops the expired
//     entries, then the entry that expires soonest.
package cache

import (
	"bytes"
	"encoding/json"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/protocol"
)

// maxTTL caps a result's ttlMs: a client that runs for days revalidates
// at least daily, whatever the server said.
const maxTTL = 24 * time.Hour

// DefaultMax is the number of entries a Cache keeps when Max is 0.
const DefaultMax = 1024

// cacheable are the methods whose complete results carry cache hints.
var cacheable = map[string]bool{
	protocol.MethodDiscover: true, protocol.MethodListTools: true, protocol.MethodListPrompts: true,
	protocol.MethodListResources: true, protocol.MethodListResourceTemplates: true, protocol.MethodReadResource: true,
}

// invalidates maps a notification to the methods whose entries it drops.
var invalidates = map[string][]string{
	protocol.NotificationToolListChanged:     {protocol.MethodListTools},
	protocol.NotificationPromptListChanged:   {protocol.MethodListPrompts},
	protocol.NotificationResourceListChanged: {protocol.MethodListResources, protocol.MethodListResourceTemplates},
}

// Cache holds cacheable results. The zero value is ready; it is safe for
// concurrent use.
type Cache struct {
	// Max bounds the entries kept; 0 means DefaultMax.
	Max int
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	mu      sync.Mutex
	entries map[key]entry
	gen     uint64 // counts the Notify and Invalidate calls
}

// Generation is a count of the invalidations so far: take it before
// sending a request, and give it to PutSince with the answer.
func (c *Cache) Generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// key identifies a result: method, canonical params and, for a private
// result, the authorization context.
type key struct{ method, params, principal string }

// entry is a kept result and when it goes stale.
type entry struct {
	result  json.RawMessage
	expires time.Time
	uri     string // resources/read's uri, for notifications/resources/updated
}

// Get returns a fresh result for method and params, kept from principal's
// or from a public result.
func (c *Cache) Get(method string, params json.RawMessage, principal string) (json.RawMessage, bool) {
	if !cacheable[method] { // before the key: most calls are not cacheable
		return nil, false
	}
	p, _, ok := canonical(params)
	if !ok {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	for _, k := range []key{{method, p, principal}, {method, p, "\x00public"}} {
		if e, ok := c.entries[k]; ok {
			if now.Before(e.expires) {
				return e.result, true
			}
			delete(c.entries, k)
		}
	}
	return nil, false
}

// Put keeps result, the answer to method with params sent in principal's
// authorization context, when its hints allow (see the package
// documentation), and reports whether it did.
func (c *Cache) Put(method string, params json.RawMessage, principal string, result json.RawMessage) bool {
	return c.put(method, params, principal, result, nil)
}

// PutSince is Put for an answer to a request sent at generation gen (see
// Generation): it is not kept when a notification or Invalidate came
// since, for the answer may predate the change it told of.
func (c *Cache) PutSince(gen uint64, method string, params json.RawMessage, principal string, result json.RawMessage) bool {
	return c.put(method, params, principal, result, &gen)
}

func (c *Cache) put(method string, params json.RawMessage, principal string, result json.RawMessage, gen *uint64) bool {
	if !cacheable[method] { // before the key: most calls are not cacheable
		return false
	}
	var hints struct {
		ResultType protocol.ResultType `json:"resultType"`
		protocol.CacheHints
	}
	if json.Unmarshal(result, &hints) != nil || (hints.ResultType != "" && hints.ResultType != protocol.ResultTypeComplete) ||
		hints.TTLMs == nil || *hints.TTLMs <= 0 {
		return false
	}
	p, uri, ok := canonical(params)
	if !ok {
		return false
	}
	ttl := min(*hints.TTLMs, maxTTL.Milliseconds())
	k := key{method, p, principal}
	switch hints.CacheScope {
	case protocol.CacheScopePublic:
		k.principal = "\x00public"
	case protocol.CacheScopePrivate:
	default:
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != nil && *gen != c.gen {
		return false
	}
	now := c.now()
	if c.entries == nil {
		c.entries = make(map[key]entry)
	}
	if _, exists := c.entries[k]; !exists && len(c.entries) >= c.max() {
		c.evict(now)
	}
	c.entries[k] = entry{result: bytes.Clone(result), expires: now.Add(time.Duration(ttl) * time.Millisecond), uri: uri}
	return true
}

// Notify drops the entries a server notification makes stale: a
// list-changed notification's lists, or notifications/resources/updated's
// reads of its uri.
func (c *Cache) Notify(method string, params json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	if method == protocol.NotificationResourceUpdated {
		var p struct {
			URI string `json:"uri"`
		}
		if json.Unmarshal(params, &p) != nil {
			return
		}
		for k, e := range c.entries {
			if k.method == "resources/read" && e.uri == p.URI {
				delete(c.entries, k)
			}
		}
		return
	}
	for _, m := range invalidates[method] {
		c.drop(m)
	}
}

// Invalidate drops every entry of method, or every entry when method is "".
func (c *Cache) Invalidate(method string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.drop(method)
}

// drop deletes the entries of method ("" for all); c.mu is held.
func (c *Cache) drop(method string) {
	for k := range c.entries {
		if method == "" || k.method == method {
			delete(c.entries, k)
		}
	}
}

// evict makes room for one entry: the expired ones go, else the one that
// expires soonest; c.mu is held.
func (c *Cache) evict(now time.Time) {
	var soonest key
	var first time.Time
	for k, e := range c.entries {
		if !now.Before(e.expires) {
			delete(c.entries, k)
			continue
		}
		if first.IsZero() || e.expires.Before(first) {
			soonest, first = k, e.expires
		}
	}
	if len(c.entries) >= c.max() {
		delete(c.entries, soonest)
	}
}

func (c *Cache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Cache) max() int {
	if c.Max > 0 {
		return c.Max
	}
	return DefaultMax
}

// canonical returns params as a key: the JSON of the object without _meta,
// its members sorted (absent, null and {} are the same key), with its uri
// member; ok is false for params that must not be cached (not an object,
// or a retry carrying inputResponses or requestState).
func canonical(params json.RawMessage) (p, uri string, ok bool) {
	if len(bytes.TrimSpace(params)) == 0 || string(bytes.TrimSpace(params)) == "null" {
		return "{}", "", true
	}
	var vals map[string]any
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.UseNumber() // numbers keep their digits
	if dec.Decode(&vals) != nil || vals == nil {
		return "", "", false
	}
	_, retry := vals["inputResponses"]
	_, state := vals["requestState"]
	if retry || state {
		return "", "", false
	}
	delete(vals, "_meta")
	if u, isString := vals["uri"].(string); isString {
		uri = u
	}
	b, err := json.Marshal(vals) // map keys sorted, values re-encoded
	if err != nil {
		return "", "", false
	}
	return string(b), uri, true
}
