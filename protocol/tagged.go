package protocol

import (
	"errors"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// marshalTagged encodes v, a struct whose JSON form is an object, with
// "key": value put first. It writes the constant discriminator of a
// variant type whose Go struct has no field for it.
func marshalTagged(key, value string, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if len(body) < 2 || body[0] != '{' {
		return nil, errorf("%s %q does not encode as an object", key, value)
	}
	out := make([]byte, 0, len(body)+len(key)+len(value)+6)
	out = append(out, '{')
	out = appendQuoted(out, key)
	out = append(out, ':')
	out = appendQuoted(out, value)
	if body[1] != '}' {
		out = append(out, ',')
	}
	return append(out, body[1:]...), nil
}

// unmarshalTagged checks that the object data has "key": want and decodes
// it into v, a struct without a field for key.
func unmarshalTagged(data []byte, key, want string, v any) error {
	got, err := member(data, key)
	if err != nil {
		return err
	}
	if got != want {
		return errorf("%s is %q, want %q", key, got, want)
	}
	return json.Unmarshal(data, v)
}

// member returns the string value of the member key of the object data,
// matched exactly (case-sensitively). An absent member gives "".
func member(data []byte, key string) (string, error) {
	raw, err := lookup(data, key)
	if err != nil || raw == nil {
		return "", err
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", errorf("%s must be a string", key)
	}
	return s, nil
}

// lookup returns the raw value of the member key of the object data,
// matched exactly; nil when it is absent.
func lookup(data []byte, key string) (json.RawMessage, error) {
	f, err := members(data, key)
	if err != nil {
		return nil, err
	}
	return f[0], nil
}

// members returns the raw values of the given members of the object data,
// matched by exact key; absent members are nil.
func members(data []byte, keys ...string) ([]json.RawMessage, error) {
	f, err := jsonx.Fields(data, keys...)
	if errors.Is(err, jsonx.ErrNotObject) {
		return nil, errorf("want a JSON object, got %s", clip(data))
	}
	return f, err
}

// appendQuoted appends s as a JSON string.
func appendQuoted(buf []byte, s string) []byte {
	b, _ := json.Marshal(s)
	return append(buf, b...)
}

// clip shortens data for an error message.
func clip(data []byte) string {
	const limit = 40
	if len(data) > limit {
		return string(data[:limit]) + "..."
	}
	return string(data)
}

// errorf returns an error with the package's prefix.
func errorf(format string, args ...any) error {
	return fmt.Errorf("protocol: "+format, args...)
}
