package schema

import (
	"cmp"
	"hash/maphash"
	"slices"
)

// lookup returns the position of an instance key among the names the
// schema tracks (its properties, then required names that are not
// properties), or -1. It is safe on a nil node.
func (n *fastNode) lookup(key []byte, escaped bool) int {
	if n == nil || len(n.names) == 0 {
		return -1
	}
	if escaped {
		var tmp [64]byte
		key = appendUnescaped(tmp[:0], key)
	}
	if n.index != nil {
		if i, ok := n.index[string(key)]; ok {
			return i
		}
		return -1
	}
	for i, name := range n.names {
		if name == string(key) {
			return i
		}
	}
	return -1
}

// child returns the schema that applies to the member whose name is at
// position idx (-1: untracked), and the keyword that applies it.
func (n *fastNode) child(idx int) (*fastNode, string) {
	switch {
	case n == nil:
		return nil, ""
	case idx >= 0 && idx < len(n.props):
		return n.props[idx], "properties"
	case n.additional != nil:
		return n.additional, "additionalProperties"
	}
	return nil, ""
}

// seenSet records which tracked names an object has.
type seenSet struct {
	bits [4]uint64
	more []bool // when more than 256 names are tracked
}

// add marks position i of n; it returns false when i was already marked.
func (s *seenSet) add(i, n int) bool {
	if n <= 64*len(s.bits) {
		word, bit := i/64, uint64(1)<<(i%64)
		if s.bits[word]&bit != 0 {
			return false
		}
		s.bits[word] |= bit
		return true
	}
	if s.more == nil {
		s.more = make([]bool, n)
	}
	if s.more[i] {
		return false
	}
	s.more[i] = true
	return true
}

func (s *seenSet) has(i int) bool {
	if s.more != nil {
		return s.more[i]
	}
	return i < 64*len(s.bits) && s.bits[i/64]&(uint64(1)<<(i%64)) != 0
}

// keySet detects duplicates among the names of an object that the schema
// does not track. The first few are kept as positions in the instance and
// compared as they come; past those, every name is kept as a hash of its
// unescaped text and its position, and finish sorts the hashes and compares
// the names whose hashes are equal: no map, and no copy of any name.
type keySet struct {
	n     int
	spans [16]keySpan
	more  []keyHash
	tmp   []byte // unescaped names, for hashing
}

type keySpan struct {
	start, end int
	escaped    bool
}

// keyHash is a name's hash and the position of its opening quote.
type keyHash struct {
	h     uint64
	quote int
}

var keySeed = maphash.MakeSeed()

// add records the key k of buf; it returns false when it was already
// there. Past the first names it always returns true: finish tells.
func (s *keySet) add(buf []byte, k strInfo) bool {
	if s.more != nil {
		s.hash(buf, keySpan{k.start, k.end, k.escaped})
		return true
	}
	key := buf[k.start:k.end]
	for _, o := range s.spans[:s.n] {
		if contentsEqual(buf[o.start:o.end], o.escaped, key, k.escaped) {
			return false
		}
	}
	if s.n < len(s.spans) {
		s.spans[s.n] = keySpan{k.start, k.end, k.escaped}
		s.n++
		return true
	}
	s.more = make([]keyHash, 0, 4*len(s.spans))
	for _, o := range s.spans {
		s.hash(buf, o)
	}
	s.hash(buf, keySpan{k.start, k.end, k.escaped})
	return true
}

func (s *keySet) hash(buf []byte, k keySpan) {
	name := buf[k.start:k.end]
	if k.escaped {
		s.tmp = appendUnescaped(s.tmp[:0], name)
		name = s.tmp
	}
	if len(s.more) == cap(s.more) {
		s.more = slices.Grow(s.more, len(s.more)) // double, not the 1.25 of append
	}
	s.more = append(s.more, keyHash{maphash.Bytes(keySeed, name), k.start - 1})
}

// finish reports whether the names hashed since the first ones are
// distinct.
func (s *keySet) finish(buf []byte) bool {
	if len(s.more) == 0 {
		return true
	}
	slices.SortFunc(s.more, func(a, b keyHash) int { return cmp.Compare(a.h, b.h) })
	for i := 1; i < len(s.more); i++ {
		if s.more[i].h != s.more[i-1].h {
			continue
		}
		// Equal hashes: compare every earlier name with the same hash.
		for j := i - 1; j >= 0 && s.more[j].h == s.more[i].h; j-- {
			a, _, _ := scanString(buf, s.more[j].quote)
			b, _, _ := scanString(buf, s.more[i].quote)
			if contentsEqual(buf[a.start:a.end], a.escaped, buf[b.start:b.end], b.escaped) {
				return false
			}
		}
	}
	return true
}
