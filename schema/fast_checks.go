package schema

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// The messages below are the library's (kaptinlin/jsonschema v0.9.8),
// with the same number formatting, and with the instance values they
// quote clipped as the library path clips them (validate.go). Each check
// asks note before it builds a message (see fast_cap.go).

// common checks the keywords that apply to every kind of value: type,
// enum and const.
func (w *walker) common(n *fastNode, k kindSet, raw []byte, ptr string) {
	if n.types != 0 && n.types&k == 0 && w.note(ptr, "type") {
		w.add(ptr, "type", "Value is "+kindName(k)+" but should be "+n.typeNames)
	}
	if n.enum != nil && !inEnum(raw, n.enum) && w.note(ptr, "enum") {
		w.add(ptr, "enum", "Value "+clip.String(fmt.Sprint(decodeAny(raw)))+" should be one of the allowed values: "+n.enumText)
	}
	if n.hasConst && !constEqual(raw, &n.konst) && w.note(ptr, "const") {
		msg := "Value does not match the constant value"
		if n.konst.kind == 'n' {
			msg = "Value should be null"
		}
		w.add(ptr, "const", msg)
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
		w.add(ptr, "maxLength", "Value should be at most "+fmt.Sprintf("%.0f", *n.maxLength)+" characters")
	}
	if n.minLength != nil && s.runes < int(*n.minLength) && w.note(ptr, "minLength") {
		w.add(ptr, "minLength", "Value should be at least "+fmt.Sprint(*n.minLength)+" characters")
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
			w.add(ptr, "pattern", "Value does not match the required pattern "+n.patternText)
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
		w.add(ptr, "multipleOf", clip.String(d.format())+" should be a multiple of "+b.text)
	}
	if b := n.maximum; b != nil && cmpDec(&d, &b.d) > 0 && w.note(ptr, "maximum") {
		w.add(ptr, "maximum", clip.String(d.format())+" should be at most "+b.text)
	}
	if b := n.exclusiveMaximum; b != nil && cmpDec(&d, &b.d) >= 0 && w.note(ptr, "exclusiveMaximum") {
		w.add(ptr, "exclusiveMaximum", clip.String(d.format())+" should be less than "+b.text)
	}
	if b := n.minimum; b != nil && cmpDec(&d, &b.d) < 0 && w.note(ptr, "minimum") {
		w.add(ptr, "minimum", clip.String(d.format())+" should be at least "+b.text)
	}
	if b := n.exclusiveMinimum; b != nil && cmpDec(&d, &b.d) <= 0 && w.note(ptr, "exclusiveMinimum") {
		w.add(ptr, "exclusiveMinimum", clip.String(d.format())+" should be greater than "+b.text)
	}
}

func (w *walker) arrayChecks(n *fastNode, raw []byte, ptr string, count int, spans []span) {
	w.common(n, kindArray, raw, ptr)
	if n.maxItems != nil && float64(count) > *n.maxItems && w.note(ptr, "maxItems") {
		w.add(ptr, "maxItems", "Value should have at most "+fmt.Sprintf("%.0f", *n.maxItems)+" items")
	}
	if n.minItems != nil && float64(count) < *n.minItems && w.note(ptr, "minItems") {
		w.add(ptr, "minItems", "Value should have at least "+fmt.Sprint(*n.minItems)+" items")
	}
	if j, i, dup := firstDuplicate(w.buf, spans); dup && w.note(ptr, "uniqueItems") {
		w.add(ptr, "uniqueItems", "Array items at indices "+strconv.Itoa(j)+" and "+strconv.Itoa(i)+" are not unique")
	}
}

func (w *walker) objectChecks(n *fastNode, raw []byte, ptr string, count int, seen *seenSet) {
	w.common(n, kindObject, raw, ptr)
	if n.maxProperties != nil && float64(count) > *n.maxProperties && w.note(ptr, "maxProperties") {
		w.add(ptr, "maxProperties", "Value should have at most "+fmt.Sprint(*n.maxProperties)+" properties")
	}
	if n.minProperties != nil && float64(count) < *n.minProperties && w.note(ptr, "minProperties") {
		w.add(ptr, "minProperties", "Value should have at least "+fmt.Sprint(*n.minProperties)+" properties")
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
	quoted := make([]string, 0, missing)
	for _, i := range n.required {
		if !seen.has(i) {
			quoted = append(quoted, "'"+n.names[i]+"'")
		}
	}
	if missing == 1 {
		w.add(ptr, "required", "Required property "+quoted[0]+" is missing")
	} else {
		w.add(ptr, "required", "Required properties "+strings.Join(quoted, ", ")+" are missing")
	}
}
