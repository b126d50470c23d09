package schema

import (
	"bytes"
	"cmp"
	"slices"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// firstDuplicate finds, as the library does, the first element i equal to
// an earlier one, and the first such earlier element j.
func firstDuplicate(buf []byte, spans []span) (j, i int, ok bool) {
	n := len(spans)
	if n < 2 {
		return 0, 0, false
	}
	val := func(k int) []byte { return buf[spans[k].start:spans[k].end] }
	if n <= 32 {
		var hs [32]uint64
		for k := range n {
			hs[k] = hashRaw(val(k))
		}
		for i := 1; i < n; i++ {
			for j := range i {
				if hs[i] == hs[j] && rawEqual(val(i), val(j)) {
					return j, i, true
				}
			}
		}
		return 0, 0, false
	}
	type entry struct {
		h   uint64
		idx int
	}
	es := make([]entry, n)
	for k := range n {
		es[k] = entry{hashRaw(val(k)), k}
	}
	slices.SortFunc(es, func(a, b entry) int {
		if c := cmp.Compare(a.h, b.h); c != 0 {
			return c
		}
		return cmp.Compare(a.idx, b.idx)
	})
	bestI, bestJ := n, 0
	for g := 0; g < n; {
		e := g + 1
		for e < n && es[e].h == es[g].h {
			e++
		}
	group:
		for a := g + 1; a < e && es[a].idx < bestI; a++ {
			for b := g; b < a; b++ {
				if rawEqual(val(es[a].idx), val(es[b].idx)) {
					bestI, bestJ = es[a].idx, es[b].idx
					break group
				}
			}
		}
		g = e
	}
	return bestJ, bestI, bestI < n
}

// rawEqual reports whether two accepted values are equal as JSON values.
func rawEqual(a, b []byte) bool {
	switch {
	case a[0] == '"':
		if b[0] != '"' {
			return false
		}
		ac, bc := a[1:len(a)-1], b[1:len(b)-1]
		return jsonx.Equal(ac, hasBackslash(ac), bc, hasBackslash(bc))
	case a[0] == '-' || isDigit(a[0]):
		if b[0] != '-' && !isDigit(b[0]) {
			return false
		}
		la, _, _ := parseNumLit(a, 0)
		lb, _, _ := parseNumLit(b, 0)
		if !la.known() || !lb.known() {
			return false
		}
		da, db := la.dec(), lb.dec()
		return cmpDec(&da, &db) == 0
	case a[0] == '[':
		if b[0] != '[' {
			return false
		}
		ma, i, okA := rawMembers(a, 0)
		mb, j, okB := rawMembers(b, 0)
		for okA && okB {
			if !rawEqual(ma.val, mb.val) {
				return false
			}
			ma, i, okA = rawMembers(a, i)
			mb, j, okB = rawMembers(b, j)
		}
		return !okA && !okB
	case a[0] == '{':
		if b[0] != '{' {
			return false
		}
		na := 0
		for ma, i, ok := rawMembers(a, 0); ok; ma, i, ok = rawMembers(a, i) {
			na++
			found := false
			for mb, j, ok := rawMembers(b, 0); ok; mb, j, ok = rawMembers(b, j) {
				if jsonx.Equal(ma.key, ma.escaped, mb.key, mb.escaped) {
					if !rawEqual(ma.val, mb.val) {
						return false
					}
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		nb := 0
		for _, j, ok := rawMembers(b, 0); ok; _, j, ok = rawMembers(b, j) {
			nb++
		}
		return na == nb
	}
	return bytes.Equal(a, b) // true, false, null
}

// hashRaw hashes an accepted value (FNV-1a) so that equal values (per
// rawEqual) hash alike.
func hashRaw(raw []byte) uint64 {
	h := uint64(fnvOffset)
	switch c := raw[0]; {
	case c == '"':
		h = mixByte(h, 's')
		content := raw[1 : len(raw)-1]
		if !hasBackslash(content) {
			return mix(h, content)
		}
		var buf [utf8.UTFMax]byte
		for i := 0; i < len(content); {
			var r rune
			r, i = jsonx.NextRune(content, i)
			h = mix(h, buf[:utf8.EncodeRune(buf[:], r)])
		}
	case c == '-' || isDigit(c):
		h = mixByte(h, 'd')
		l, _, _ := parseNumLit(raw, 0)
		if !l.known() {
			return h
		}
		d := l.dec()
		if d.ndig() == 0 {
			return h
		}
		if d.neg {
			h = mixByte(h, '-')
		}
		h = mix(mix(h, d.hi), d.lo)
		h = mixUint64(h, uint64(d.point)) //nolint:gosec // hashing bits
	case c == '[':
		h = mixByte(h, 'a')
		for m, i, ok := rawMembers(raw, 0); ok; m, i, ok = rawMembers(raw, i) {
			h = mixUint64(h, hashRaw(m.val))
		}
	case c == '{':
		// Member order does not matter: add up the members' hashes.
		var sum uint64
		for m, i, ok := rawMembers(raw, 0); ok; m, i, ok = rawMembers(raw, i) {
			kh := uint64(fnvOffset)
			var buf [utf8.UTFMax]byte
			for k := 0; k < len(m.key); {
				var r rune
				r, k = jsonx.NextRune(m.key, k)
				kh = mix(kh, buf[:utf8.EncodeRune(buf[:], r)])
			}
			sum += mixUint64(kh, hashRaw(m.val))
		}
		h = mixUint64(mixByte(h, 'o'), sum)
	default:
		h = mixByte(h, c)
	}
	return h
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func mixByte(h uint64, c byte) uint64 { return (h ^ uint64(c)) * fnvPrime }

func mix(h uint64, b []byte) uint64 {
	for _, c := range b {
		h = mixByte(h, c)
	}
	return h
}

func mixUint64(h, v uint64) uint64 {
	for range 8 {
		h = mixByte(h, byte(v))
		v >>= 8
	}
	return h
}
