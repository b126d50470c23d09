package mcp

import (
	"crypto/sha256"
	"slices"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// listed is what a registry holds: an entry with a wire descriptor, which
// the list's content digest covers.
type listed interface {
	comparable
	// descriptor is the entry as the newest revision lists it (every field
	// any revision shows).
	descriptor() any
}

func (e *entry) descriptor() any         { return e.wireTool(protocol.Revision20260728) }
func (e *resourceEntry) descriptor() any { return e.wire(protocol.Revision20260728) }
func (e *templateEntry) descriptor() any { return e.wire(protocol.Revision20260728) }
func (e *promptEntry) descriptor() any   { return e.wire(protocol.Revision20260728) }

// registry is one list of registered things (tools, resources, templates,
// prompts): kept in registration order and indexed by key. It is guarded
// by Server.mu. The list is copied on removal, never changed in place, so
// a snapshot stays valid for its reader.
type registry[E listed] struct {
	list  []E
	sums  []*lazySum[E] // of each entry's descriptor, in list order
	index map[string]int
	key   func(E) string
	snap  *listSnapshot[E] // replaced on every change
}

// entrySum is the SHA-256 of an entry's descriptor, as JSON.
type entrySum [32]byte

func sumOf[E listed](e E) entrySum {
	raw, err := json.Marshal(e.descriptor())
	if err != nil {
		raw = []byte(err.Error()) // a descriptor the wire cannot carry is never listed anyway
	}
	return sha256.Sum256(raw)
}

// lazySum is an entry's sum, computed when a digest first needs it: most
// lists fit one page and are never paged with a cursor, and encoding the
// first descriptor is most of what registering the first entry would cost
// (the encoder of its type is built then). It is safe for concurrent use.
type lazySum[E listed] struct {
	once sync.Once
	e    E
	sum  entrySum
}

func (l *lazySum[E]) get() *entrySum {
	l.once.Do(func() { l.sum = sumOf(l.e) })
	return &l.sum
}

func newRegistry[E listed](key func(E) string) registry[E] {
	return registry[E]{index: map[string]int{}, key: key, snap: &listSnapshot[E]{}}
}

// add appends e, reporting false when its key is taken.
func (r *registry[E]) add(e E) bool {
	k := r.key(e)
	if _, dup := r.index[k]; dup {
		return false
	}
	r.index[k] = len(r.list)
	r.list = append(r.list, e)
	r.sums = append(r.sums, &lazySum[E]{e: e})
	r.changed()
	return true
}

// remove deletes the entry with key k, keeping the others' order, and
// reports whether it was there.
func (r *registry[E]) remove(k string) bool {
	i, ok := r.index[k]
	if !ok {
		return false
	}
	r.list = slices.Delete(slices.Clone(r.list), i, i+1)
	r.sums = slices.Delete(slices.Clone(r.sums), i, i+1)
	delete(r.index, k)
	for j := i; j < len(r.list); j++ {
		r.index[r.key(r.list[j])] = j
	}
	r.changed()
	return true
}

// changed takes a new snapshot; its digest waits for the first page
// that needs it, so registering many entries hashes the list once.
func (r *registry[E]) changed() {
	r.snap = &listSnapshot[E]{list: r.list, sums: r.sums}
}

// get returns the entry with key k.
func (r *registry[E]) get(k string) (E, bool) {
	i, ok := r.index[k]
	if !ok {
		var zero E
		return zero, false
	}
	return r.list[i], true
}

// listSnapshot is a list as one change left it, with the digest of its
// content that cursors into it are bound to: two servers with the same
// entries in the same order have the same digest, and any change to a
// name, a descriptor or the order changes it. It is safe for concurrent
// use.
type listSnapshot[E listed] struct {
	list  []E
	sums  []*lazySum[E]
	once  sync.Once
	sum   [32]byte
	pages pageCache // encoded pages, for lists no caller sees differently
}

// digest returns the list's digest, computed once.
func (l *listSnapshot[E]) digest() *[32]byte {
	l.once.Do(func() {
		h := sha256.New()
		h.Write([]byte("mcpwire/list\x00"))
		for i := range l.sums {
			h.Write(l.sums[i].get()[:])
		}
		h.Sum(l.sum[:0])
	})
	return &l.sum
}

// listTag is what a cursor carries of the list it pages.
type listTag [8]byte

// tag names what a caller sees of the list: visible is the list itself
// or, when the caller may see only some entries, those entries in list
// order. The whole list's tag is its digest; a subset's also covers which
// entries it holds, so a cursor is stale when the list changes or when
// what its caller sees does.
func (l *listSnapshot[E]) tag(visible []E) (t listTag) {
	d := l.digest()
	if len(visible) == len(l.list) { // a subsequence as long as the list is the list
		copy(t[:], d[:])
		return t
	}
	h := sha256.New()
	h.Write(d[:])
	bits := make([]byte, (len(l.list)+7)/8)
	j := 0
	for _, e := range visible {
		for j < len(l.list) && l.list[j] != e {
			j++
		}
		if j == len(l.list) { // not in list order: bind to the entries themselves
			return contentTag(visible)
		}
		bits[j/8] |= 1 << (j % 8)
		j++
	}
	h.Write(bits)
	copy(t[:], h.Sum(nil))
	return t
}

// contentTag is the tag of entries that are not a subsequence of a
// snapshot: the digest of their descriptors.
func contentTag[E listed](entries []E) (t listTag) {
	h := sha256.New()
	h.Write([]byte("mcpwire/entries\x00"))
	for _, e := range entries {
		s := sumOf(e)
		h.Write(s[:])
	}
	copy(t[:], h.Sum(nil))
	return t
}
