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
