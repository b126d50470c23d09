package mcp

import "slices"

// registry is one list of registered things (tools, resources, templates,
// prompts): kept in registration order, indexed by key, with a generation
// that every change bumps, so that a cursor into the list goes stale when
// it changes. It is guarded by Server.mu. The list is copied on removal,
// never changed in place, so a snapshot stays valid for its reader.
type registry[E any] struct {
	list  []E
	index map[string]int
	gen   uint64
	key   func(E) string
}

func newRegistry[E any](key func(E) string) registry[E] {
	return registry[E]{index: map[string]int{}, gen: 1, key: key}
}

// add appends e, reporting false when its key is taken.
func (r *registry[E]) add(e E) bool {
	k := r.key(e)
	if _, dup := r.index[k]; dup {
		return false
	}
	r.index[k] = len(r.list)
	r.list = append(r.list, e)
	r.gen++
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
	delete(r.index, k)
	for j := i; j < len(r.list); j++ {
		r.index[r.key(r.list[j])] = j
	}
	r.gen++
	return true
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
