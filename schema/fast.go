package schema

// fastSchema validates instances against a schema of the fast-path subset
// (see fast_compile.go) by walking the raw JSON bytes: no decoding into
// maps, no allocation for a valid instance, no copy of long strings. It
// reports the same violations, with the same messages, as the library.
type fastSchema struct {
	root *fastNode
}

// jsonViolation is the violation of an instance that is not one JSON value.
var jsonViolation = Violation{Keyword: "json", Message: "the value is not valid JSON (or has a duplicate object key)"}

// validate makes a first pass that only tells valid from invalid, and,
// for an invalid instance, a second one that collects the violations.
func (f *fastSchema) validate(instance []byte) []Violation {
	w := walker{buf: instance}
	if !w.document(f.root) {
		return []Violation{jsonViolation}
	}
	if !w.bad {
		return nil
	}
	w = walker{buf: instance, collect: true}
	w.document(f.root)
	return w.result()
}

// walker scans one instance. Its methods return false when the instance
// is not valid JSON (as the library's decoder defines it).
type walker struct {
	buf     []byte
	pos     int
	depth   int
	collect bool        // second pass: build the violations
	bad     bool        // some rule is broken
	vs      []Violation // the first violations, in order (see fast_cap.go)
	total   int         // the violations found on the second pass
}

// document scans the whole instance: one value between optional spaces.
func (w *walker) document(root *fastNode) bool {
	w.pos = skipSpace(w.buf, 0)
	if !w.value(root, "", "") {
		return false
	}
	return skipSpace(w.buf, w.pos) == len(w.buf)
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
			if via == "additionalProperties" {
				if w.note(ptr, via) {
					w.add(ptr, via, "additional property is not allowed")
				}
			} else if w.note(ptr, "false") {
				w.add(ptr, "false", "no value is allowed here")
			}
		}
		if !n.asserts || n.isBool || (w.bad && !w.collect) {
			n = nil // nothing (more) to check below
		}
	}
	switch w.buf[w.pos] {
	case '{':
		return w.object(n, ptr)
	case '[':
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

func (w *walker) object(n *fastNode, ptr string) bool {
	start := w.pos
	if w.depth++; w.depth > maxDepth {
		return false
	}
	var seen seenSet
	var keys keySet
	count := 0
	w.pos = skipSpace(w.buf, w.pos+1)
	if w.pos < len(w.buf) && w.buf[w.pos] == '}' {
		w.pos++
	} else {
		for {
			if w.pos >= len(w.buf) || w.buf[w.pos] != '"' {
				return false
			}
			k, next, ok := scanString(w.buf, w.pos)
			if !ok {
				return false
			}
			w.pos = skipSpace(w.buf, next)
			if w.pos >= len(w.buf) || w.buf[w.pos] != ':' {
				return false
			}
			w.pos = skipSpace(w.buf, w.pos+1)
			key := w.buf[k.start:k.end]
			idx := n.lookup(key, k.escaped)
			if idx >= 0 {
				if !seen.add(idx, len(n.names)) {
					return false // duplicate name
				}
			} else if !w.collect && !keys.add(w.buf, k) {
				return false // the second pass knows there is none
			}
			count++
			child, via := n.child(idx)
			cptr := ""
			if w.collect && child != nil {
				cptr = w.memberPointer(ptr, key, k.escaped)
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
	if !w.collect && !keys.finish(w.buf) {
		return false
	}
	w.depth--
	if n != nil {
		w.objectChecks(n, w.buf[start:w.pos], ptr, count, &seen)
	}
	return true
}

// next consumes the separator after a member or element: a comma (and
// the space after it) or the closing byte, which makes done true.
func (w *walker) next(closing byte) (done, ok bool) {
	w.pos = skipSpace(w.buf, w.pos)
	if w.pos >= len(w.buf) {
		return false, false
	}
	switch w.buf[w.pos] {
	case ',':
		w.pos = skipSpace(w.buf, w.pos+1)
		return false, true
	case closing:
		w.pos++
		return true, true
	}
	return false, false
}

// span is the extent of an array element.
type span struct{ start, end int }

func (w *walker) array(n *fastNode, ptr string) bool {
	start := w.pos
	if w.depth++; w.depth > maxDepth {
		return false
	}
	var items *fastNode
	unique := false
	if n != nil {
		items = n.items
		// Like the library, skip the check when "items" is false.
		unique = n.uniqueItems && (items == nil || !items.isBool || items.boolVal)
	}
	var inline [16]span
	spans := inline[:0]
	count := 0
	w.pos = skipSpace(w.buf, w.pos+1)
	if w.pos < len(w.buf) && w.buf[w.pos] == ']' {
		w.pos++
	} else {
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
	if n != nil {
		w.arrayChecks(n, w.buf[start:w.pos], ptr, count, spans)
	}
	return true
}

func (w *walker) str(n *fastNode, ptr string) bool {
	start := w.pos
	s, next, ok := scanString(w.buf, w.pos)
	if !ok {
		return false
	}
	w.pos = next
	if n != nil {
		w.stringChecks(n, s, w.buf[start:next], ptr)
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
	end := w.pos + len(lit)
	if end > len(w.buf) || string(w.buf[w.pos:end]) != lit {
		return false
	}
	raw := w.buf[w.pos:end]
	w.pos = end
	if n != nil {
		w.common(n, k, raw, ptr)
	}
	return true
}
