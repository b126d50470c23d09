package protocol

import (
	"bytes"
	"errors"
	"slices"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// metaField is one reserved key of a _meta object and the Go field behind
// it. For encoding, value is the field's value and set tells whether it is
// present; for decoding, value points at the field.
type metaField struct {
	key   string
	set   bool
	value any
}

// encodeMeta writes the set fields in order, then other's keys sorted. A
// key of other that is also one of the fields is an error, so a value can
// never be sent twice.
func encodeMeta(other Meta, fields ...metaField) ([]byte, error) {
	buf := []byte{'{'}
	for _, f := range fields {
		if _, dup := other[f.key]; dup {
			return nil, errorf("_meta key %q is in Other but has its own field", f.key)
		}
		if !f.set {
			continue
		}
		raw, err := json.Marshal(f.value)
		if err != nil {
			return nil, errorf("_meta %q: %w", f.key, err)
		}
		buf = appendMember(buf, f.key, raw)
	}
	keys := make([]string, 0, len(other))
	for k := range other {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		raw := other[k]
		if len(raw) == 0 {
			raw = json.RawMessage("null")
		}
		buf = appendMember(buf, k, raw)
	}
	return append(buf, '}'), nil
}

// appendMember appends "key":raw to an object being built in buf.
func appendMember(buf []byte, key string, raw []byte) []byte {
	if len(buf) > 1 {
		buf = append(buf, ',')
	}
	buf = appendQuoted(buf, key)
	buf = append(buf, ':')
	return append(buf, raw...)
}

// decodeMeta decodes the object data: each field's key into its value,
// every other key into *other (nil when there are none). On an error
// *other is left as it was.
func decodeMeta(data []byte, other *Meta, fields ...metaField) error {
	var s jsonx.Scanner
	s.Collect = true
	if _, ok := s.Scan(data); !ok || jsonx.FirstByte(data) != '{' {
		// Not an object: null is one without members; anything else gets
		// the decoder's own words for what is wrong.
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(data, &raw); err != nil {
			return err
		}
		*other = nil
		return nil
	}
	// One scan splits the members: a reserved key decodes straight into
	// its field, and only the others are copied (data is not ours to keep).
	var rest Meta
	for i := range s.NumMembers() {
		m := s.Member(i)
		key := m.Key.Text(data)
		v := data[m.Value.Start:m.Value.End]
		j := slices.IndexFunc(fields, func(f metaField) bool { return f.key == key })
		if j < 0 {
			if rest == nil {
				rest = Meta{}
			}
			rest[key] = bytes.Clone(v) // a repeated key keeps its last value
			continue
		}
		if err := json.Unmarshal(v, fields[j].value); err != nil {
			var idErr *jsonrpc.Error
			if errors.As(err, &idErr) {
				return errorf("_meta %q must be a string or an integer", key)
			}
			return errorf("_meta %q: %w", key, err)
		}
	}
	*other = rest
	return nil
}
