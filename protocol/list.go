package protocol

import json "github.com/goccy/go-json"

// List is an array member the schema requires. It is a plain slice
// (append, range and assignment from []T all work), except that a nil List
// encodes as [] rather than null, so an empty result is never invalid.
type List[T any] []T

// MarshalJSON encodes the elements, and a nil List as [].
func (l List[T]) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]T(l))
}
