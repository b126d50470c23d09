package jsonx_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

func TestFields(t *testing.T) {
	tests := []struct {
		name  string
		raw   string
		names []string
		want  []string // "" for absent
	}{
		{"exact keys", `{"name":"echo","arguments":{"name":"inner"}}`, []string{"name", "arguments"}, []string{`"echo"`, `{"name":"inner"}`}},
		{"case-sensitive", `{"Name":1}`, []string{"name", "Name"}, []string{"", "1"}},
		{"absent", `{"a":1}`, []string{"b"}, []string{""}},
		{"nested keys are not members", `{"a":{"b":1}}`, []string{"b"}, []string{""}},
		{"escaped key", `{"n\u0061me":"x"}`, []string{"name"}, []string{`"x"`}},
		{"spaces kept inside values", ` { "a" : [ 1 , 2 ] } `, []string{"a"}, []string{`[ 1 , 2 ]`}},
		{"same name twice", `{"a":true}`, []string{"a", "a"}, []string{"true", "true"}},
		{"no names", `{"a":1}`, nil, []string{}},
		{"empty object", `{}`, []string{"a"}, []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := jsonx.Fields(json.RawMessage(tt.raw), tt.names...)
			if err != nil {
				t.Fatalf("Fields: %v", err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d values, want %d", len(got), len(tt.want))
			}
			for i, w := range tt.want {
				if w == "" && got[i] != nil {
					t.Errorf("%q = %s, want absent (nil)", tt.names[i], got[i])
				}
				if w != "" && string(got[i]) != w {
					t.Errorf("%q = %s, want %s", tt.names[i], got[i], w)
				}
			}
		})
	}
}

func TestFieldsNotAnObject(t *testing.T) {
	for _, raw := range []string{``, `null`, `[]`, `[{"a":1}]`, `"x"`, `1`, `{"a":`, `{"a":1}x`} {
		if _, err := jsonx.Fields(json.RawMessage(raw), "a"); !errors.Is(err, jsonx.ErrNotObject) {
			t.Errorf("Fields(%s) error = %v, want ErrNotObject", raw, err)
		}
	}
}

func TestParseObject(t *testing.T) {
	o, err := jsonx.ParseObject(json.RawMessage(`{"Name":1,"name":"x","n\u0061me2":[1],"a\"b":{"c":2}}`))
	if err != nil {
		t.Fatal(err)
	}
	if o.Len() != 4 {
		t.Errorf("Len = %d, want 4", o.Len())
	}
	for key, want := range map[string]string{
		"name": `"x"`, "Name": `1`, "name2": `[1]`, `a"b`: `{"c":2}`, "NAME": "", "c": "",
	} {
		if got := string(o.Get(key)); got != want {
			t.Errorf("Get(%q) = %s, want %s", key, got, want)
		}
	}
	for _, raw := range []string{`[]`, `1`, `null`, ``} {
		if _, err := jsonx.ParseObject(json.RawMessage(raw)); !errors.Is(err, jsonx.ErrNotObject) {
			t.Errorf("ParseObject(%s) error = %v, want ErrNotObject", raw, err)
		}
	}
}

func TestParseObjectMalformedDoesNotPanic(t *testing.T) {
	for _, in := range []string{`{"a\`, `{"a\"`, `{"a":"\`, `{`} {
		if _, err := jsonx.ParseObject([]byte(in)); err == nil {
			t.Errorf("ParseObject(%q): no error", in)
		}
	}
}

// At follows object members, and is nil where a step is missing or is not
// an object.
func TestAt(t *testing.T) {
	v := json.RawMessage(`{"a":{"b":{"c":"x"}},"n":1}`)
	for _, tc := range []struct {
		path []string
		want string
	}{
		{nil, string(v)},
		{[]string{"a", "b", "c"}, `"x"`},
		{[]string{"a", "b"}, `{"c":"x"}`},
		{[]string{"a", "z"}, ""},
		{[]string{"n", "x"}, ""},
		{[]string{"a", "b", "c", "d"}, ""},
	} {
		if got := string(jsonx.At(v, tc.path)); got != tc.want {
			t.Errorf("At(%v) = %q, want %q", tc.path, got, tc.want)
		}
	}
}
