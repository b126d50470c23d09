package jsonrpc

import (
	"errors"

	json "github.com/goccy/go-json"
)

// ErrNotObject is returned by Fields when the value is not a JSON object.
var ErrNotObject = errors.New("not a JSON object")

// Fields looks up members of a JSON object by exact key (case-sensitive,
// unlike struct decoding) and returns their raw values, nil for absent ones.
// raw must be well-formed JSON, as everything Decode returns is.
func Fields(raw json.RawMessage, names ...string) ([]json.RawMessage, error) {
	if firstByte(raw) != '{' {
		return nil, ErrNotObject
	}
	s := scanner{data: raw, collect: true}
	if !s.scan() {
		return nil, ErrNotObject
	}
	out := make([]json.RawMessage, len(names))
	for _, m := range s.members {
		key := s.keyText(m.key)
		for i, n := range names {
			if n == key {
				out[i] = json.RawMessage(raw[m.value.start:m.value.end])
			}
		}
	}
	return out, nil
}

// Object is the members of one JSON object, found by exact key.
type Object struct {
	raw     json.RawMessage
	members []member
	s       *scanner
}

// ParseObject reads the top-level members of a JSON object. raw must be
// well-formed JSON, as everything Decode returns is; it is scanned once, on
// a fast path that skips re-validating strings.
func ParseObject(raw json.RawMessage) (Object, error) {
	if firstByte(raw) != '{' {
		return Object{}, ErrNotObject
	}
	s := &scanner{data: raw, collect: true, trusted: true}
	s.members = make([]member, 0, 8)
	if !s.scan() {
		return Object{}, ErrNotObject
	}
	return Object{raw: raw, members: s.members, s: s}, nil
}

// Get returns the raw value of the member with exactly this key, or nil.
func (o Object) Get(key string) json.RawMessage {
	for _, m := range o.members {
		if !m.key.escaped && m.key.raw.end-m.key.raw.start == len(key) &&
			string(o.raw[m.key.raw.start:m.key.raw.end]) == key {
			return json.RawMessage(o.raw[m.value.start:m.value.end])
		}
		if m.key.escaped && o.s.keyText(m.key) == key {
			return json.RawMessage(o.raw[m.value.start:m.value.end])
		}
	}
	return nil
}

// Len returns the number of members.
func (o Object) Len() int { return len(o.members) }

// Each calls fn for every member in order, with its decoded key.
func (o Object) Each(fn func(key string, value json.RawMessage)) {
	for _, m := range o.members {
		fn(o.s.keyText(m.key), json.RawMessage(o.raw[m.value.start:m.value.end]))
	}
}
