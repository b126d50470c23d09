package jsonrpc_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
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
			got, err := jsonrpc.Fields(json.RawMessage(tt.raw), tt.names...)
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
		if _, err := jsonrpc.Fields(json.RawMessage(raw), "a"); !errors.Is(err, jsonrpc.ErrNotObject) {
			t.Errorf("Fields(%s) error = %v, want ErrNotObject", raw, err)
		}
	}
}

func TestPeekID(t *testing.T) {
	full := `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"x":"aaaa`
	if got := jsonrpc.PeekID([]byte(full)).Raw(); got != "42" {
		t.Errorf("PeekID(%s) = %q, want 42", full, got)
	}
	tests := []struct {
		prefix string
		want   string
	}{
		{`{"id":"abc","method":"x","params":{"deep":[[[`, `"abc"`},
		{` {"id" : 7 ,`, `7`},
		{`{"jsonrpc":"2.0","id":9007199254740993,"params":"`, `9007199254740993`},
		{`{"params":{"id":1,"x":"aaaa`, ``},                   // id nested in params
		{`{"jsonrpc":"2.0","method":"m","params":{"a":"`, ``}, // id after the cut
		{`{"jsonrpc":"2.0","id":4242`, ``},                    // the cut may be inside the number
		{`{"jsonrpc":"2.0","id":-`, ``},
		{`{"jsonrpc":"2.0","id":"ab`, ``},
		{`{"jsonrpc":"2.0","id"`, ``},
		{`{"jsonrpc":"2.0","id":1.5,"x":"`, ``},
		{`{"jsonrpc":"2.0","id":null,"x":"`, ``},
		{`{"\u0069d":5,"x":"`, `5`},
		{`[{"id":1,"method":"m"}`, ``},
		{`"id":1,`, ``},
		{``, ``},
	}
	for _, tt := range tests {
		if got := jsonrpc.PeekID([]byte(tt.prefix)).Raw(); got != tt.want {
			t.Errorf("PeekID(%s) = %q, want %q", tt.prefix, got, tt.want)
		}
	}
	// Every prefix that ends before the id token is complete gives no id,
	// every one after gives 42.
	line := []byte(`{"jsonrpc":"2.0","id":4242,"method":"tools/call","params":{"x":"aaaa"}}`)
	complete := len(`{"jsonrpc":"2.0","id":4242`)
	for i := 0; i <= len(line); i++ {
		got := jsonrpc.PeekID(line[:i]).Raw()
		want := ""
		if i > complete {
			want = "4242"
		}
		if got != want {
			t.Errorf("PeekID(%s) = %q, want %q", line[:i], got, want)
		}
	}
}

func TestParseObject(t *testing.T) {
	o, err := jsonrpc.ParseObject(json.RawMessage(`{"Name":1,"name":"x","n\u0061me2":[1],"a\"b":{"c":2}}`))
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
		if _, err := jsonrpc.ParseObject(json.RawMessage(raw)); !errors.Is(err, jsonrpc.ErrNotObject) {
			t.Errorf("ParseObject(%s) error = %v, want ErrNotObject", raw, err)
		}
	}
}

func TestParseObjectMalformedDoesNotPanic(t *testing.T) {
	for _, in := range []string{`{"a\`, `{"a\"`, `{"a":"\`, `{`} {
		if _, err := jsonrpc.ParseObject([]byte(in)); err == nil {
			t.Errorf("ParseObject(%q): no error", in)
		}
	}
}
