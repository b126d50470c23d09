package schema

import (
	"bytes"
	"fmt"
	"strconv"

	json "github.com/goccy/go-json"
)

// object is a JSON object that keeps its members in insertion order, so the
// inferred schemas are byte-stable across runs.
type object struct {
	members []member
}

type member struct {
	key   string
	value any
}

// set replaces the value of key, or appends key when absent.
func (o *object) set(key string, value any) {
	for i := range o.members {
		if o.members[i].key == key {
			o.members[i].value = value
			return
		}
	}
	o.members = append(o.members, member{key, value})
}

// get returns the value of key.
func (o *object) get(key string) (any, bool) {
	for _, m := range o.members {
		if m.key == key {
			return m.value, true
		}
	}
	return nil, false
}

// getString returns the value of key when it is a string.
func (o *object) getString(key string) string {
	v, _ := o.get(key)
	s, _ := v.(string)
	return s
}

// encode writes v as compact JSON. It knows the value kinds the inference
// builds (*object, []any, []string, string, bool, int64, json.RawMessage)
// and those of a document decoded with UseNumber (map[string]any,
// json.Number).
func encode(buf *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case *object:
		return encodeList(buf, '{', '}', v.members, func(m member) error { return encodeMember(buf, m.key, m.value) })
	case []any:
		return encodeList(buf, '[', ']', v, func(e any) error { return encode(buf, e) })
	case []string:
		return encodeList(buf, '[', ']', v, func(s string) error { writeString(buf, s); return nil })
	case string:
		writeString(buf, v)
	case bool:
		buf.WriteString(strconv.FormatBool(v))
	case int64:
		buf.WriteString(strconv.FormatInt(v, 10))
	case map[string]any: // a decoded JSON object: sorted keys
		return encodeList(buf, '{', '}', sortedKeys(v), func(k string) error { return encodeMember(buf, k, v[k]) })
	case json.Number:
		buf.WriteString(string(v))
	case json.RawMessage:
		if err := json.Compact(buf, v); err != nil {
			return err
		}
	case nil:
		buf.WriteString("null")
	default:
		return fmt.Errorf("schema: internal error: cannot encode %T", v)
	}
	return nil
}

// encodeList writes items between the brackets opening and closing, separated
// by commas, each with item.
func encodeList[T any](buf *bytes.Buffer, opening, closing byte, items []T, item func(T) error) error {
	buf.WriteByte(opening)
	for i, x := range items {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := item(x); err != nil {
			return err
		}
	}
	buf.WriteByte(closing)
	return nil
}

// encodeMember writes one object member: key, a colon and value.
func encodeMember(buf *bytes.Buffer, key string, value any) error {
	writeString(buf, key)
	buf.WriteByte(':')
	return encode(buf, value)
}

// writeString writes s as a JSON string. Unlike encoding/json it does not
// escape '<', '>' and '&', so descriptions stay readable; invalid UTF-8
// becomes U+FFFD.
func writeString(buf *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	buf.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			buf.WriteByte('\\')
			buf.WriteRune(r)
		case r == '\n':
			buf.WriteString(`\n`)
		case r == '\r':
			buf.WriteString(`\r`)
		case r == '\t':
			buf.WriteString(`\t`)
		case r < 0x20 || r == '\u2028' || r == '\u2029':
			buf.WriteString(`\u`)
			buf.WriteByte(hex[r>>12&0xf])
			buf.WriteByte(hex[r>>8&0xf])
			buf.WriteByte(hex[r>>4&0xf])
			buf.WriteByte(hex[r&0xf])
		default:
			buf.WriteRune(r) // utf8.RuneError for invalid bytes
		}
	}
	buf.WriteByte('"')
}
