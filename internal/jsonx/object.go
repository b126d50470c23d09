package jsonx

import (
	"errors"

	json "github.com/goccy/go-json"
)

// ErrNotObject is returned by Fields and ParseObject when the value is not
// a JSON object.
var ErrNotObject = errors.New("not a JSON object")

// Fields looks up members of a JSON object by exact key (case-sensitive,
// unlike struct decoding, and after unescaping: "n\u0061me" is "name") and
// returns their raw values, nil for absent ones; a key given twice in raw
// gives its last value. raw is checked to be one valid JSON value.
func Fields(raw json.RawMessage, names ...string) ([]json.RawMessage, error) {
	if FirstByte(raw) != '{' {
		return nil, ErrNotObject
	}
	s := Scanner{Collect: true}
	if _, ok := s.Scan(raw); !ok {
		return nil, ErrNotObject
	}
	out := make([]json.RawMessage, len(names))
	for m := range s.NumMembers() {
		mem := s.Member(m)
		key := mem.Key.Content(raw)
		for i, n := range names {
			if EqualText(key, mem.Key.Escaped, n) {
				out[i] = json.RawMessage(raw[mem.Value.Start:mem.Value.End])
			}
		}
	}
	return out, nil
}

// Object is the members of one JSON object, found by exact key. The zero
// Object has no members.
type Object struct {
	raw     json.RawMessage
	members []Member
}

// ParseObject reads the top-level members of a JSON object. raw must be
// well-formed JSON, as everything jsonrpc.Decode returns is: it is scanned
// once, on a fast path that does not check strings again (malformed input
// gives ErrNotObject or wrong members, never a panic).
func ParseObject(raw json.RawMessage) (Object, error) { return ParseObjectInto(raw, nil) }

// ParseObjectInto is ParseObject, keeping the members in buf's storage
// when they fit in it, so that a caller with room for a few members in a
// value it allocates anyway allocates nothing more.
func ParseObjectInto(raw json.RawMessage, buf []Member) (Object, error) {
	if FirstByte(raw) != '{' {
		return Object{}, ErrNotObject
	}
	s := Scanner{Trusted: true, Collect: true}
	if _, ok := s.Scan(raw); !ok {
		return Object{}, ErrNotObject
	}
	o := Object{raw: raw}
	if s.NumMembers() > 0 {
		o.members = s.MembersInto(buf)
	}
	return o, nil
}

// Get returns the raw value of the member with exactly this key, or nil;
// when raw repeats the key, the first one's.
func (o Object) Get(key string) json.RawMessage {
	for _, m := range o.members {
		if EqualText(m.Key.Content(o.raw), m.Key.Escaped, key) {
			return json.RawMessage(o.raw[m.Value.Start:m.Value.End])
		}
	}
	return nil
}

// Raw returns the object as it was parsed, nil for the zero Object.
func (o Object) Raw() json.RawMessage { return o.raw }

// Len returns the number of members.
func (o Object) Len() int { return len(o.members) }

// Each calls fn for every member in order, with its decoded key.
func (o Object) Each(fn func(key string, value json.RawMessage)) {
	for _, m := range o.members {
		fn(m.Key.Text(o.raw), json.RawMessage(o.raw[m.Value.Start:m.Value.End]))
	}
}

// At returns the value at path within v, following object members one
// step at a time, or nil when a step is missing or not an object: the
// value an x-mcp-header annotation at that path points at in a tool's
// arguments.
func At(v json.RawMessage, path []string) json.RawMessage {
	for _, step := range path {
		o, err := ParseObject(v)
		if err != nil {
			return nil
		}
		if v = o.Get(step); v == nil {
			return nil
		}
	}
	return v
}
