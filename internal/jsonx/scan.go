package jsonx

import (
	"errors"
	"strconv"
)

// MaxDepth is the one nesting limit of the module: a value may hold at
// most MaxDepth levels of arrays and objects, counting its own. The wire
// refuses a deeper message (-32600), and the schema fast path refuses a
// deeper instance with the same text, ErrTooDeep.
const MaxDepth = 1000

// ErrTooDeep is the verdict on a value nested deeper than MaxDepth.
var ErrTooDeep = errors.New("nesting deeper than " + strconv.Itoa(MaxDepth) + " levels")

// Span is the [Start, End) byte range of a value in scanned data.
type Span struct{ Start, End int }

// Member is one member of a scanned top-level object.
type Member struct {
	Key   Str  // its key
	Value Span // its value, without the white space around it
}

// topMembers is the number of top-level members a Scanner keeps without
// allocating: a JSON-RPC envelope has at most four that matter.
const topMembers = 4

// Scanner checks that data is JSON and records what its readers need: the
// members of a top-level object, the first repeated key, whether the
// nesting went too deep. Set its options, then call Scan (or Skip) once.
// A Scanner is a value meant to live on its caller's stack: it allocates
// nothing for a document whose top-level object has at most four members
// and whose objects have at most 16 keys each.
type Scanner struct {
	// Mode says which escaped surrogates strings may hold.
	Mode Mode
	// Trusted says the data is already known to be valid JSON, so that
	// strings are skipped by searching for their closing quote and keys
	// are not checked. The scan still stops, without panicking, on data
	// that breaks the promise.
	Trusted bool
	// CheckKeys makes the scan look for an object that repeats a key
	// (compared after unescaping). A repeated key does not stop the scan:
	// Repeated and RepeatedKey report the first one found.
	CheckKeys bool
	// FoldDepth makes CheckKeys also count keys that differ only in case
	// (strings.EqualFold) as repeats, in the objects nested at most
	// FoldDepth levels deep: 1 is a top-level object, 2 an object that is
	// the value of one of its members or one of its elements.
	FoldDepth int
	// Collect records the members of a top-level object (see Member).
	Collect bool

	// TooDeep is set when the scan stopped at a value nested deeper than
	// MaxDepth.
	TooDeep bool

	dup        bool
	dupA, dupB Str // the first repeated key: the earlier, then the later
	top        [topMembers]Member
	nTop       int
	all        []Member // every member, once there are more than topMembers
}

// Scan checks that data is one JSON text: one value between optional
// white space. It returns whether it is, and the index where the scan
// stopped: len(data), or the offending byte.
func (s *Scanner) Scan(data []byte) (end int, ok bool) {
	i := SkipSpace(data, 0)
	if i, ok = s.value(data, i, 0); !ok {
		return i, false
	}
	i = SkipSpace(data, i)
	return i, i == len(data)
}

// Skip checks the value at data[i], which depth arrays and objects
// enclose, and returns the index after it. It lets a reader that walks
// data itself have a value it does not look into checked by the scanner.
func (s *Scanner) Skip(data []byte, i, depth int) (next int, ok bool) {
	return s.value(data, i, depth)
}

// Repeated reports whether the scan found an object that repeats a key.
func (s *Scanner) Repeated() bool { return s.dup }

// RepeatedKey describes the first repeated key the scan of data found, or
// returns nil.
func (s *Scanner) RepeatedKey(data []byte) *KeyError {
	if !s.dup {
		return nil
	}
	return &KeyError{First: s.dupA.Text(data), Second: s.dupB.Text(data)}
}

// NumMembers returns the number of members of the top-level object that
// a collecting scan recorded (up to where it stopped).
func (s *Scanner) NumMembers() int { return s.nTop }

// Member returns the top-level member at position i, in the order of the
// data.
func (s *Scanner) Member(i int) Member {
	if s.all != nil {
		return s.all[i]
	}
	return s.top[i]
}

// Members returns the recorded members, in the order of the data, in a
// slice the caller owns (the Scanner is done with it after its scan).
func (s *Scanner) Members() []Member { return s.MembersInto(nil) }

// MembersInto is Members, using buf's storage when the members fit in it.
func (s *Scanner) MembersInto(buf []Member) []Member {
	if s.all != nil {
		return s.all // already on the heap
	}
	return append(buf[:0], s.top[:s.nTop]...)
}

func (s *Scanner) addMember(m Member) {
	switch {
	case s.all != nil:
		s.all = append(s.all, m)
	case s.nTop < topMembers:
		s.top[s.nTop] = m
	default: // one more than fit: all of them go to the heap
		s.all = make([]Member, 0, 4*topMembers)
		s.all = append(append(s.all, s.top[:]...), m)
	}
	s.nTop++
}

// value scans the value at b[i], which depth arrays and objects enclose.
func (s *Scanner) value(b []byte, i, depth int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '{':
		return s.object(b, i, depth+1)
	case '[':
		return s.array(b, i, depth+1)
	case '"':
		var next int
		var ok bool
		if s.Trusted {
			_, next, ok = skipTrusted(b, i)
		} else {
			_, next, ok = ScanString(b, i, s.Mode)
		}
		return next, ok
	case 't':
		return Literal(b, i, "true")
	case 'f':
		return Literal(b, i, "false")
	case 'n':
		return Literal(b, i, "null")
	}
	n, ok := ScanNumber(b, i)
	return n.End, ok
}

// open steps into the array or object at b[i], itself at the given depth
// (see Open); ok is false, and TooDeep set, when that is deeper than
// MaxDepth.
func (s *Scanner) open(b []byte, i, depth int) (next int, empty, ok bool) {
	if depth > MaxDepth {
		s.TooDeep = true
		return i, false, false
	}
	next, empty = Open(b, i)
	return next, empty, true
}

// array scans the array at b[i], itself at the given depth.
func (s *Scanner) array(b []byte, i, depth int) (int, bool) {
	i, empty, ok := s.open(b, i, depth)
	if !ok || empty {
		return i, ok
	}
	for {
		var more bool
		if i, ok = s.value(b, i, depth); !ok {
			return i, false
		}
		if i, more, ok = Next(b, i, ']'); !ok || !more {
			return i, ok
		}
	}
}

// object scans the object at b[i], itself at the given depth.
func (s *Scanner) object(b []byte, i, depth int) (int, bool) {
	i, empty, ok := s.open(b, i, depth)
	if !ok || empty {
		return i, ok
	}
	if s.CheckKeys && !s.Trusted && !s.dup {
		return s.checkedMembers(b, i, depth)
	}
	for {
		next, more, ok := s.member(b, i, depth, nil)
		if !ok || !more {
			return next, ok
		}
		i = next
	}
}

// checkedMembers scans the members of an object, checking its keys; its
// KeySet lives in this frame, not in object's, so that objects whose keys
// are not checked do not pay for it.
func (s *Scanner) checkedMembers(b []byte, i, depth int) (int, bool) {
	keys := KeySet{Fold: depth <= s.FoldDepth}
	for {
		next, more, ok := s.member(b, i, depth, &keys)
		if !ok {
			return next, false
		}
		if !more {
			if !s.dup {
				if a, b2, distinct := keys.End(b); !distinct {
					s.dup, s.dupA, s.dupB = true, a, b2
				}
			}
			return next, true
		}
		i = next
	}
}

// member scans the member at b[i] of an object at the given depth, and
// the comma or closing brace after it. keys, when not nil, checks its key.
func (s *Scanner) member(b []byte, i, depth int, keys *KeySet) (next int, more, ok bool) {
	var k Str
	if s.Trusted {
		k, i, ok = trustedKey(b, i)
	} else {
		k, i, ok = Key(b, i, s.Mode)
	}
	if !ok {
		return i, false, false
	}
	if keys != nil && !s.dup {
		if a, fresh := keys.Add(b, k); !fresh {
			s.dup, s.dupA, s.dupB = true, a, k
		}
	}
	start := i
	if i, ok = s.value(b, i, depth); !ok {
		return i, false, false
	}
	if depth == 1 && s.Collect {
		s.addMember(Member{k, Span{start, i}})
	}
	return Next(b, i, '}')
}
