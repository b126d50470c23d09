package mcp

import (
	"slices"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// pageCache holds the encoded results of one list snapshot's pages, by
// revision and offset, for lists that every caller sees alike. It lives on
// its snapshot (see listSnapshot), so any change to the list drops it. It
// is safe for concurrent use. Its size is bounded by the list's: the
// offsets come from cursors this server sealed, at most one per entry, and
// there are five revisions.
type pageCache struct {
	mu    sync.RWMutex
	pages map[pageKey]json.RawMessage
}

type pageKey struct {
	r     protocol.Revision
	start int
}

func (c *pageCache) get(k pageKey) (json.RawMessage, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	raw, ok := c.pages[k]
	return raw, ok
}

func (c *pageCache) put(k pageKey, raw json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pages == nil {
		c.pages = map[pageKey]json.RawMessage{}
	}
	c.pages[k] = raw
}

// cachedPage answers a list request whose entries no caller sees
// differently (none is gated by scopes or by the caller's capabilities):
// the page at the cursor's offset is the same bytes for every caller of a
// revision until the list changes, so it is encoded once, envelope
// included (see fillEnvelope), and returned as raw JSON after. build makes
// the result as the uncached path does; a cursor that does not open goes
// to build too, which answers it with the usual error.
func cachedPage[E listed](s *Server, kind byte, cursor *string, snap *listSnapshot[E], n int, r *request, build func() (any, error)) (any, error) {
	start, ok := s.cachedOffset(kind, cursor, snap, n)
	if !ok {
		return build()
	}
	k := pageKey{r.rev, start}
	if raw, ok := snap.pages.get(k); ok {
		return raw, nil
	}
	res, err := build()
	if err != nil {
		return nil, err
	}
	s.fillEnvelope(res, r)
	b, err := json.Marshal(res)
	if err != nil {
		return res, nil // run reports it
	}
	raw := json.RawMessage(slices.Clip(b)) // shared from now on: an append must copy
	snap.pages.put(k, raw)
	return raw, nil
}

// cachedOffset is the offset a cursor points at in the whole list of snap
// (n entries), as pageOf would find it, and false when it does not open.
func (s *Server) cachedOffset(kind byte, cursor *string, snap interface{ digest() *[32]byte }, n int) (int, bool) {
	if cursor == nil || *cursor == "" {
		return 0, true
	}
	var tag listTag
	copy(tag[:], snap.digest()[:]) // the whole list's tag (see listSnapshot.tag)
	start, err := s.parseCursor(kind, *cursor, tag)
	return start, err == nil && start <= n
}
