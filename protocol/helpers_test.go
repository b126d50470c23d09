package protocol

import (
	"bytes"
	stdjson "encoding/json"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"
)

// roundTrip decodes data into v, rejecting unknown members where the
// decoder can see them, encodes v and compares the result with data as
// JSON. The comparison is what makes the check strict everywhere: a member
// a type does not know, or decodes under another name, is missing or
// renamed in the output.
func roundTrip(t *testing.T, data []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decode: %v", err)
	}
	encodesAs(t, v, data)
}

// encodesAs encodes v and compares the result with want as JSON, so that
// member order and spacing do not matter.
func encodesAs(t *testing.T, v any, want []byte) {
	t.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	if diff := cmp.Diff(asAny(t, want), asAny(t, out)); diff != "" {
		t.Errorf("encoding differs (-want +encoded):\n%s\nencoded: %s", diff, out)
	}
}

// asAny decodes JSON with the standard library, numbers kept as written.
func asAny(t *testing.T, data []byte) any {
	t.Helper()
	dec := stdjson.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
	return v
}

// encodeCase checks that v encodes to exactly want, or, when wantErr is
// set, that encoding it fails with an error containing wantErr.
func encodeCase(t *testing.T, v any, want, wantErr string) {
	t.Helper()
	out, err := json.Marshal(v)
	if wantErr != "" {
		failsWith(t, err, wantErr)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
}

// decodeFails checks that decoding in into v fails with an error
// containing wantErr.
func decodeFails(t *testing.T, in string, v any, wantErr string) {
	t.Helper()
	failsWith(t, json.Unmarshal([]byte(in), v), wantErr)
}

// failsWith checks that err is not nil and contains want.
func failsWith(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one containing %q", err, want)
	}
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }
