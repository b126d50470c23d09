package jsonx

import "testing"

func TestPrepend(t *testing.T) {
	for _, tt := range []struct {
		obj, want string
		ok        bool
	}{
		{`{}`, `{"_meta":{"a":1}}`, true},
		{` { } `, `{"_meta":{"a":1} } `, true},
		{`{"name":"x"}`, `{"_meta":{"a":1},"name":"x"}`, true},
		{`{"name":"x","_meta":{}}`, "", false},
		{`{"\u005fmeta":{}}`, "", false}, // the same key, escaped
		{`{"name":`, "", false},
		{`[1]`, "", false},
		{``, "", false},
	} {
		got, ok := Prepend([]byte(tt.obj), "_meta", []byte(`{"a":1}`))
		if ok != tt.ok || string(got) != tt.want {
			t.Errorf("Prepend(%q) = %q, %v; want %q, %v", tt.obj, got, ok, tt.want, tt.ok)
		}
	}
}
