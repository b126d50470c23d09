package schema

import "strconv"

// The checks below state what they find in params and leave the words to
// message (message.go), as the library path does: both paths word a
// violation alike. Each check asks note before it builds the parameters
// (see fast_cap.go), so that a valid instance costs no allocation and a
// violation past the cap costs no message.

// common checks the keywords that apply to every kind of value: type,
// enum and const. raw is the value as sent.
func (w *walker) common(n *fastNode, k kindSet, raw []byte, ptr string) {
	if n.types != 0 && n.types&k == 0 && w.note(ptr, "type") {
		w.add(ptr, "type", &params{value: raw, found: kindName(k), types: n.typeNames})
	}
	if n.enum != nil && !inEnum(raw, n.enum) && w.note(ptr, "enum") {
		w.add(ptr, "enum", &params{value: raw, values: n.enumTexts})
	}
	if n.hasConst && !constEqual(raw, &n.konst) && w.note(ptr, "const") {
		w.add(ptr, "const", &params{value: raw, values: n.konstText})
	}
}

func inEnum(raw []byte, enum []fastConst) bool {
	for i := range enum {
		if constEqual(raw, &enum[i]) {
			return true
		}
	}
	return false
}

func (w *walker) stringChecks(n *fastNode, s strInfo, raw []byte, ptr string) {
	w.common(n, kindString, raw, ptr)
	if n.maxLength != nil && s.runes > int(*n.maxLength) && w.note(ptr, "maxLength") {
		w.add(ptr, "maxLength", &params{value: raw, limit: countText(*n.maxLength)})
	}
	if n.minLength != nil && s.runes < int(*n.minLength) && w.note(ptr, "minLength") {
		w.add(ptr, "minLength", &params{value: raw, limit: countText(*n.minLength)})
	}
	if n.pattern != nil {
		content := w.buf[s.start:s.end]
		var match bool
		if s.escaped {
			match = n.pattern.MatchString(unescape(content, true))
		} else {
			match = n.pattern.Match(content)
		}
		if !match && w.note(ptr, "pattern") {
			w.add(ptr, "pattern", &params{value: raw, text: n.patternText})
		}
	}
}

func (w *walker) numberChecks(n *fastNode, l *numLit, ptr string) {
	if !l.known() {
		w.common(n, kindUnknown, l.text, ptr) // no numeric keyword applies
		return
	}
	d := l.dec()
	k := kindNumber
	if d.isInt() {
		k = kindInteger
	}
	w.common(n, k, l.text, ptr)
	if b := n.multipleOf; b != nil && !isMultiple(&d, &b.d) && w.note(ptr, "multipleOf") {
		w.add(ptr, "multipleOf", &params{value: l.text, limit: b.text})
	}
	if b := n.maximum; b != nil && cmpDec(&d, &b.d) > 0 && w.note(ptr, "maximum") {
		w.add(ptr, "maximum", &params{value: l.text, limit: b.text})
	}
	if b := n.exclusiveMaximum; b != nil && cmpDec(&d, &b.d) >= 0 && w.note(ptr, "exclusiveMaximum") {
		w.add(ptr, "exclusiveMaximum", &params{value: l.text, limit: b.text})
	}
	if b := n.minimum; b != nil && cmpDec(&d, &b.d) < 0 && w.note(ptr, "minimum") {
		w.add(ptr, "minimum", &params{value: l.text, limit: b.text})
	}
	if b := n.exclusiveMinimum; b != nil && cmpDec(&d, &b.d) <= 0 && w.note(ptr, "exclusiveMinimum") {
		w.add(ptr, "exclusiveMinimum", &params{value: l.text, limit: b.text})
	}
}

func (w *walker) arrayChecks(n *fastNode, raw []byte, ptr string, count int, spans []span) {
	w.common(n, kindArray, raw, ptr)
	if n.maxItems != nil && float64(count) > *n.maxItems && w.note(ptr, "maxItems") {
		w.add(ptr, "maxItems", &params{value: raw, limit: countText(*n.maxItems)})
	}
	if n.minItems != nil && float64(count) < *n.minItems && w.note(ptr, "minItems") {
		w.add(ptr, "minItems", &params{value: raw, limit: countText(*n.minItems)})
	}
	if j, i, dup := firstDuplicate(w.buf, spans); dup && w.note(ptr, "uniqueItems") {
		w.add(ptr, "uniqueItems", &params{value: raw, indexes: []string{strconv.Itoa(j), strconv.Itoa(i)}})
	}
}

func (w *walker) objectChecks(n *fastNode, raw []byte, ptr string, count int, seen *seenSet) {
	w.common(n, kindObject, raw, ptr)
	if n.maxProperties != nil && float64(count) > *n.maxProperties && w.note(ptr, "maxProperties") {
		w.add(ptr, "maxProperties", &params{value: raw, limit: countText(*n.maxProperties)})
	}
	if n.minProperties != nil && float64(count) < *n.minProperties && w.note(ptr, "minProperties") {
		w.add(ptr, "minProperties", &params{value: raw, limit: countText(*n.minProperties)})
	}
	missing := 0
	for _, i := range n.required {
		if !seen.has(i) {
			missing++
		}
	}
	if missing == 0 || !w.note(ptr, "required") {
		return
	}
	names := make([]string, 0, missing)
	for _, i := range n.required {
		if !seen.has(i) {
			names = append(names, n.names[i])
		}
	}
	w.add(ptr, "required", &params{names: names})
}
