package schema

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// The second pass keeps, in w.vs, the MaxViolations smallest violations
// found so far, in order, and counts every violation in w.total. Once the
// list is full, a violation can only enter it by sorting before its last
// entry, so:
//
//   - note compares the pointer and keyword first and the checks build a
//     message only for a violation that may enter;
//   - a member or element whose pointer sorts after the last entry's
//     cannot hold a violation that enters (every pointer below it sorts
//     after it too): its pointer is not built, it gets the pointer
//     beyondCap, and the violations under it are only counted.

// beyondCap is the pointer given to values whose violations are only
// counted. A real pointer is empty or starts with '/'.
const beyondCap = "\x00"

// note records that a rule is broken at ptr; it reports whether the
// violation is wanted: on the second pass, when it may enter the list.
func (w *walker) note(ptr, keyword string) bool {
	w.bad = true
	if !w.collect {
		return false
	}
	w.total++
	if ptr == beyondCap {
		return false
	}
	if len(w.vs) < MaxViolations {
		return true
	}
	last := &w.vs[len(w.vs)-1]
	if c := strings.Compare(ptr, last.Pointer); c != 0 {
		return c < 0
	}
	return keyword <= last.Keyword
}

// add words a violation note wanted (see message) and puts it into its
// place in the list, dropping the last entry when the list is full.
func (w *walker) add(ptr, keyword string, p *params) {
	v := newViolation(ptr, keyword, p)
	i, _ := slices.BinarySearchFunc(w.vs, &v, func(e Violation, t *Violation) int {
		if compareViolations(&e, t) <= 0 {
			return -1 // after equal entries
		}
		return 1
	})
	if len(w.vs) == MaxViolations {
		if i == MaxViolations {
			return
		}
		w.vs = w.vs[:MaxViolations-1]
	}
	w.vs = slices.Insert(w.vs, i, v)
}

// result returns the list, with a MoreKeyword entry for the violations
// counted but not kept.
func (w *walker) result() []Violation {
	if w.total > len(w.vs) {
		return append(w.vs, moreViolation(w.total-len(w.vs)))
	}
	return w.vs
}

// full reports whether a pointer sorting after the list's last entry is
// of no use.
func (w *walker) full() bool { return len(w.vs) == MaxViolations }

// memberPointer returns the pointer of the member named key (its content,
// escaped: with escape sequences) of the object at ptr, or beyondCap.
func (w *walker) memberPointer(ptr string, key []byte, escaped bool) string {
	if ptr == beyondCap {
		return beyondCap
	}
	if !escaped && len(key) <= clip.Max && !hasPointerSpecial(key) {
		// The token is the key itself: compare before building.
		if w.full() && cmpChild(ptr, key, w.vs[len(w.vs)-1].Pointer) > 0 {
			return beyondCap
		}
		return ptr + "/" + string(key)
	}
	var name string
	if escaped {
		name = clip.String(unescape(key, true))
	} else {
		name = clip.Bytes(key)
	}
	tok := jsonx.EscapePointer(name)
	if w.full() && cmpChild(ptr, tok, w.vs[len(w.vs)-1].Pointer) > 0 {
		return beyondCap
	}
	return ptr + "/" + tok
}

// elementPointer returns the pointer of element i of the array at ptr, or
// beyondCap.
func (w *walker) elementPointer(ptr string, i int) string {
	if ptr == beyondCap {
		return beyondCap
	}
	var buf [20]byte
	tok := strconv.AppendInt(buf[:0], int64(i), 10)
	if w.full() && cmpChild(ptr, tok, w.vs[len(w.vs)-1].Pointer) > 0 {
		return beyondCap
	}
	return ptr + "/" + string(tok)
}

func hasPointerSpecial(key []byte) bool {
	for _, c := range key {
		if c == '~' || c == '/' {
			return true
		}
	}
	return false
}

// cmpChild compares the pointer parent + "/" + tok with p, without
// building it.
func cmpChild[T string | []byte](parent string, tok T, p string) int {
	n := min(len(parent), len(p))
	if c := strings.Compare(parent, p[:n]); c != 0 {
		return c // also when p is a proper prefix of parent: 1
	}
	rest := p[n:]
	switch {
	case len(rest) == 0:
		return 1 // p is parent itself
	case rest[0] != '/':
		if rest[0] > '/' {
			return -1
		}
		return 1
	}
	rest = rest[1:]
	for i := 0; i < len(tok) && i < len(rest); i++ {
		if tok[i] != rest[i] {
			if tok[i] < rest[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(tok) < len(rest):
		return -1
	case len(tok) > len(rest):
		return 1
	}
	return 0
}
