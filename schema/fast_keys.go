package schema

import "github.com/mcpwire/mcpwire/internal/jsonx"

// lookup returns the position of an instance key among the names the
// schema tracks (its properties, then required names that are not
// properties), or -1. It is safe on a nil node.
func (n *fastNode) lookup(key []byte, escaped bool) int {
	if n == nil || len(n.names) == 0 {
		return -1
	}
	if escaped {
		var tmp [64]byte
		key = jsonx.AppendUnescaped(tmp[:0], key)
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
