package mcp

import (
	"context"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// rootsCache keeps a legacy client's roots/list answer until the client
// says the roots changed (notifications/roots/list_changed).
type rootsCache struct {
	mu   sync.Mutex
	list json.RawMessage // nil: not fetched since the last change
	gen  uint64          // bumped by every change
}

// listRoots returns the client's roots, asking it only when the cache is
// empty. An answer that arrives after a change notification answers the
// call that asked, but is not cached: it may predate the change.
func (ss *session) listRoots(ctx context.Context, c *call) (json.RawMessage, error) {
	rc := &ss.roots
	rc.mu.Lock()
	list, gen := rc.list, rc.gen
	rc.mu.Unlock()
	if list != nil {
		return list, nil
	}
	list, err := c.ClientRequest(ctx, protocol.MethodListRoots, struct{}{})
	if err != nil {
		return nil, err
	}
	if answers(protocol.MethodListRoots, list) != nil {
		return list, nil // the handler reports it; an unusable list is never cached
	}
	rc.mu.Lock()
	if rc.gen == gen {
		rc.list = list
	}
	rc.mu.Unlock()
	return list, nil
}

// rootsChanged forgets the cached roots.
func (ss *session) rootsChanged() {
	rc := &ss.roots
	rc.mu.Lock()
	rc.list = nil
	rc.gen++
	rc.mu.Unlock()
}
