package schema

import "github.com/mcpwire/mcpwire/internal/jsonx"

// fastSchema validates instances against a schema of the fast-path subset
// (see fast_compile.go) by walking the raw JSON bytes: no decoding into
// maps, no allocation for a valid instance, no copy of long strings. It
// reports the same violations as the library (pointer and keyword), worded
// by the same function (message.go).
type fastSchema struct {
	root *fastNode
}

// jsonViolation is the violation of an instance that is not one JSON value.
var jsonViolation = Violation{Keyword: "json", Message: "the value is not valid JSON (or has a duplicate object key)"}

// depthViolation is the violation of an instance nested deeper than
// jsonx.MaxDepth (1000 levels), with the text the wire answers a message
// nested that deep with (jsonx.ErrTooDeep). The library allows 10000
// levels; the fast path keeps the module's one limit instead, and gives
// this verdict whether or not the library would accept the instance. The
// order is the wire's: a syntax error met before the nesting goes too
// deep gives jsonViolation, and a repeated key does not hide a too-deep
// value after it, since the scan goes on past repeated keys.
var depthViolation = Violation{Keyword: "json", Message: jsonx.ErrTooDeep.Error()}

// validate makes a first pass that only tells valid from invalid, and,
// for an invalid instance, a second one that collects the violations.
func (f *fastSchema) validate(instance []byte) []Violation {
	w := walker{buf: instance}
	if !w.document(f.root) {
		if w.tooDeep {
			return []Violation{depthViolation}
		}
		return []Violation{jsonViolation}
	}
	if !w.bad {
		return nil
	}
	w = walker{buf: instance, collect: true}
	w.document(f.root)
	return w.result()
}

// walker scans one instance with jsonx's steps, checking each value
// against its schema on the way. Its methods return false when the
// instance is not valid JSON (as the library's decoder defines it) or is
// nested too deep.
type walker struct {
	buf     []byte
	pos     int
	depth   int
	collect bool        // second pass: build the violations
	bad     bool        // some rule is broken
	dup     bool        // first pass: an object repeats a name
	tooDeep bool        // nesting deeper than jsonx.MaxDepth
	vs      []Violation // the first violations, in order (see fast_cap.go)
	total   int         // the violations found on the second pass
}

// document scans the whole instance: one value between optional spaces.
func (w *walker) document(root *fastNode) bool {
	w.pos = skipSpace(w.buf, 0)
	if !w.value(root, "", "") {
		return false
	}
	return skipSpace(w.buf, w.pos) == len(w.buf) && !w.dup
}

// value scans the value at w.pos and checks it against n (nil: check the
// syntax only). ptr is its JSON pointer (on the second pass only; beyondCap
// when its violations are only counted) and via the keyword that applied n.
func (w *walker) value(n *fastNode, ptr, via string) bool {
	if w.pos >= len(w.buf) {
		return false
	}
	if n != nil {
		if n.isBool && !n.boolVal {
			kw := "false"
			if via == "additionalProperties" {
				kw = via
			}
			if w.note(ptr, kw) {
				w.add(ptr, kw, &params{})
			}
		}
		if !n.asserts || n.isBool || (w.bad && !w.collect) {
			n = nil // nothing (more) to check below
		}
	}
	switch w.buf[w.pos] {
	case '{':
		if n == nil {
			return w.skip()
		}
		return w.object(n, ptr)
	case '[':
		if n == nil {
			return w.skip()
		}
		return w.array(n, ptr)
	case '"':
		return w.str(n, ptr)
	case 't':
		return w.literal("true", kindBoolean, n, ptr)
	case 'f':
		return w.literal("false", kindBoolean, n, ptr)
	case 'n':
		return w.literal("null", kindNull, n, ptr)
	}
	return w.number(n, ptr)
}

// skip has the scanner check an array or object no schema applies to. On
// the second pass the instance is known to be valid.
func (w *walker) skip() bool {
	sc := jsonx.Scanner{Mode: jsonx.Pairs, CheckKeys: !w.collect && !w.dup, Trusted: w.collect}
	next, ok := sc.Skip(w.buf, w.pos, w.depth)
	w.pos = next
	if sc.Repeated() {
		w.repeated()
	}
	w.tooDeep = sc.TooDeep
	return ok
}

// repeated notes an object that repeats a name: the instance is not
// valid JSON, but the scan goes on (see depthViolation).
func (w *walker) repeated() { w.dup, w.bad = true, true }

// enter counts one more level of nesting; it reports false past the limit.
func (w *walker) enter() bool {
	if w.depth++; w.depth > jsonx.MaxDepth {
		w.tooDeep = true
		return false
	}
	return true
}

// object scans an object that n applies to.
func (w *walker) object(n *fastNode, ptr string) bool {
	start := w.pos
	if !w.enter() {
		return false
	}
	var seen seenSet
	var keys jsonx.KeySet // names the schema does not track, on the first pass
	count := 0
	var empty bool
	if w.pos, empty = jsonx.Open(w.buf, w.pos); !empty {
		for {
			k, next, ok := jsonx.Key(w.buf, w.pos, jsonx.Pairs)
			w.pos = next
			if !ok {
				return false
			}
			key := w.buf[k.Start:k.End]
			idx := n.lookup(key, k.Escaped)
			if idx >= 0 {
				if !seen.add(idx, len(n.names)) {
					w.repeated()
				}
			} else if !w.collect && !w.dup {
				if _, fresh := keys.Add(w.buf, k); !fresh {
					w.repeated()
				}
			}
			count++
			child, via := n.child(idx)
			cptr := ""
			if w.collect && child != nil {
				cptr = w.memberPointer(ptr, key, k.Escaped)
			}
			if !w.value(child, cptr, via) {
				return false
			}
			if done, ok := w.next('}'); !ok {
				return false
			} else if done {
				break
			}
		}
	}
	if !w.collect && !w.dup {
		if _, _, distinct := keys.End(w.buf); !distinct {
			w.repeated()
		}
	}
	w.depth--
	w.objectChecks(n, w.buf[start:w.pos], ptr, count, &seen)
	return true
}

// next consumes the separator after a member or element: a comma (and
// the space after it) or the closing byte, which makes done true.
func (w *walker) next(closing byte) (done, ok bool) {
	next, more, ok := jsonx.Next(w.buf, w.pos, closing)
	w.pos = next
	return !more, ok
}

// span is the extent of an array element.
type span struct{ start, end int }

// array scans an array that n applies to.
func (w *walker) array(n *fastNode, ptr string) bool {
	start := w.pos
	if !w.enter() {
		return false
	}
	items := n.items
	// Like the library, skip the check when "items" is false.
	unique := n.uniqueItems && (items == nil || !items.isBool || items.boolVal)
	var inline [16]span
	spans := inline[:0]
	count := 0
	var empty bool
	if w.pos, empty = jsonx.Open(w.buf, w.pos); !empty {
		for {
			elem := w.pos
			cptr := ""
			if w.collect && items != nil {
				cptr = w.elementPointer(ptr, count)
			}
			if !w.value(items, cptr, "items") {
				return false
			}
			if unique {
				spans = append(spans, span{elem, w.pos})
			}
			count++
			if done, ok := w.next(']'); !ok {
				return false
			} else if done {
				break
			}
		}
	}
	w.depth--
	w.arrayChecks(n, w.buf[start:w.pos], ptr, count, spans)
	return true
}

func (w *walker) str(n *fastNode, ptr string) bool {
	start := w.pos
	s, next, ok := jsonx.ScanString(w.buf, w.pos, jsonx.Pairs)
	if !ok {
		return false
	}
	w.pos = next
	if n != nil {
		w.stringChecks(n, strOf(s), w.buf[start:next], ptr)
	}
	return true
}

func (w *walker) number(n *fastNode, ptr string) bool {
	l, end, ok := parseNumLit(w.buf, w.pos)
	if !ok {
		return false
	}
	w.pos = end
	if n != nil {
		w.numberChecks(n, &l, ptr)
	}
	return true
}

func (w *walker) literal(lit string, k kindSet, n *fastNode, ptr string) bool {
	end, ok := jsonx.Literal(w.buf, w.pos, lit)
	if !ok {
		return false
	}
	raw := w.buf[w.pos:end]
	w.pos = end
	if n != nil {
		w.common(n, k, raw, ptr)
	}
	return true
}
