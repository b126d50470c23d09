package jsonx

import (
	"cmp"
	"hash/maphash"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// pairwiseKeys is the number of keys of an object a KeySet compares pair
// by pair; past it, keys are hashed and compared when the object ends.
const pairwiseKeys = 16

// KeySet finds repeated keys among the members of one object, comparing
// keys after unescaping ("a" and "\u0061" are the same key). The first
// keys are kept as positions in the data and compared as they come; past
// those, every key is kept as a hash of its decoded text and its position,
// and End sorts the hashes and compares the keys whose hashes are equal:
// no map, and no copy of any key. The zero KeySet is ready to use and
// allocates nothing for an object of up to 16 keys.
type KeySet struct {
	// Fold makes keys that differ only in case (Unicode simple folding,
	// as strings.EqualFold) count as repeats too. Set it before the first
	// Add.
	Fold bool

	n     int
	esc   uint16                  // bit i: key i holds escapes
	spans [pairwiseKeys][2]uint32 // the first keys' contents, as offsets
	more  []keyHash
	tmp   []byte // decoded keys, for hashing
}

// keyHash is a key's hash and the position of its opening quote.
type keyHash struct {
	h     uint64
	quote int
}

var keySeed = maphash.MakeSeed()

// span returns the content of the key kept at position i, and whether it
// holds escapes.
func (k *KeySet) span(data []byte, i int) ([]byte, bool) {
	sp := k.spans[i]
	return data[sp[0]:sp[1]], k.esc&(1<<i) != 0
}

// Add records the key s, a string of data; it returns false, and the
// earlier key s repeats, when s repeats one. Past the first keys it always
// returns true: End tells.
func (k *KeySet) Add(data []byte, s Str) (earlier Str, ok bool) {
	key := data[s.Start:s.End]
	if k.more != nil {
		k.hash(s.Start-1, key, s.Escaped)
		return Str{}, true
	}
	for i := range k.n {
		if o, oEsc := k.span(data, i); k.same(o, oEsc, key, s.Escaped) {
			return Str{Start: int(k.spans[i][0]), End: int(k.spans[i][1]), Escaped: oEsc}, false
		}
	}
	if k.n < pairwiseKeys && uint64(len(data)) <= math.MaxUint32 {
		k.spans[k.n] = [2]uint32{uint32(s.Start), uint32(s.End)} //nolint:gosec // checked to fit
		if s.Escaped {
			k.esc |= 1 << k.n
		}
		k.n++
		return Str{}, true
	}
	// Past the first keys (from the first key in data of 4 GiB or more):
	// hash them all.
	k.more = make([]keyHash, 0, 4*pairwiseKeys)
	for i := range k.n {
		o, oEsc := k.span(data, i)
		k.hash(int(k.spans[i][0])-1, o, oEsc)
	}
	k.hash(s.Start-1, key, s.Escaped)
	return Str{}, true
}

func (k *KeySet) same(a []byte, aEsc bool, b []byte, bEsc bool) bool {
	if k.Fold {
		return EqualFold(a, aEsc, b, bEsc)
	}
	return Equal(a, aEsc, b, bEsc)
}

// hash records the key whose content is key and whose opening quote is at
// position quote.
func (k *KeySet) hash(quote int, key []byte, escaped bool) {
	switch {
	case k.Fold:
		k.tmp = k.tmp[:0]
		for i := 0; i < len(key); {
			var r rune
			r, i = NextRune(key, i)
			k.tmp = utf8.AppendRune(k.tmp, foldRune(r))
		}
		key = k.tmp
	case escaped:
		k.tmp = AppendUnescaped(k.tmp[:0], key)
		key = k.tmp
	}
	if len(k.more) == cap(k.more) {
		k.more = slices.Grow(k.more, len(k.more)) // double, not the 1.25 of append
	}
	k.more = append(k.more, keyHash{maphash.Bytes(keySeed, key), quote})
}

// End reports whether the keys hashed past the first ones are distinct;
// when they are not, it returns two keys that repeat each other, the
// earlier first.
func (k *KeySet) End(data []byte) (earlier, later Str, ok bool) {
	if len(k.more) == 0 {
		return Str{}, Str{}, true
	}
	slices.SortFunc(k.more, func(a, b keyHash) int {
		if c := cmp.Compare(a.h, b.h); c != 0 {
			return c
		}
		return cmp.Compare(a.quote, b.quote)
	})
	for i := 1; i < len(k.more); i++ {
		// Equal hashes: compare every earlier key with the same hash.
		for j := i - 1; j >= 0 && k.more[j].h == k.more[i].h; j-- {
			a, _, _ := ScanString(data, k.more[j].quote, Lenient)
			b, _, _ := ScanString(data, k.more[i].quote, Lenient)
			if k.same(a.Content(data), a.Escaped, b.Content(data), b.Escaped) {
				return a, b, false
			}
		}
	}
	return Str{}, Str{}, true
}

// KeyError is a repeated key: two keys of one object that are the same
// once unescaped, or that differ only in case where case variants count
// as repeats.
type KeyError struct {
	First, Second string // the two keys, decoded, in the order they came
}

// Error describes the repeat, quoting the keys clipped (package
// internal/clip): `duplicate key "id"` or `keys "name" and "Name" differ
// only in case`.
func (e *KeyError) Error() string {
	if e.First == e.Second {
		return "duplicate key " + clip.Quote(e.First)
	}
	return "keys " + clip.Quote(e.First) + " and " + clip.Quote(e.Second) + " differ only in case"
}
