package jsonx_test

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// FuzzScan checks the scanner against encoding/json: in Lenient mode it
// accepts exactly the valid UTF-8 JSON that encoding/json accepts (within
// MaxDepth), Pairs mode accepts a subset, a trusted scan of accepted data
// finds the same members, and every member's key decodes as encoding/json
// decodes it.
func FuzzScan(f *testing.F) {
	for _, s := range scanInputs {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"a":1,"\u0062":[true,{"c":null}],"d\ud800":"x","e":-1.5e3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		lenient := jsonx.Scanner{Collect: true, CheckKeys: true, FoldDepth: 2}
		end, ok := lenient.Scan(data)
		if end < 0 || end > len(data) {
			t.Fatalf("stopped at %d of %d", end, len(data))
		}
		if lenient.TooDeep {
			return // encoding/json allows 10000 levels
		}
		if want := json.Valid(data) && utf8.Valid(data); ok != want {
			t.Fatalf("Scan(%q) = %v, encoding/json says %v", data, ok, want)
		}
		pairs := jsonx.Scanner{Mode: jsonx.Pairs}
		if _, pok := pairs.Scan(data); pok && !ok {
			t.Fatalf("Pairs accepts %q, which Lenient refuses", data)
		}
		if !ok {
			return
		}
		trusted := jsonx.Scanner{Collect: true, Trusted: true}
		if _, tok := trusted.Scan(data); !tok || trusted.NumMembers() != lenient.NumMembers() {
			t.Fatalf("trusted scan of %q: %v, %d members, want %d", data, tok, trusted.NumMembers(), lenient.NumMembers())
		}
		var top map[string]json.RawMessage
		isObject := json.Unmarshal(data, &top) == nil
		for i := range lenient.NumMembers() {
			m, tm := lenient.Member(i), trusted.Member(i)
			if m.Key.Start != tm.Key.Start || m.Key.End != tm.Key.End || m.Value != tm.Value {
				t.Fatalf("member %d of %q: %+v, trusted %+v", i, data, m, tm)
			}
			var want string
			if err := json.Unmarshal(data[m.Key.Start-1:m.Key.End+1], &want); err != nil {
				t.Fatal(err)
			}
			if got := m.Key.Text(data); got != want {
				t.Fatalf("key %q decodes to %q, encoding/json says %q", data[m.Key.Start:m.Key.End], got, want)
			}
			if _, found := top[want]; isObject && !found {
				t.Fatalf("key %q of %q is not a member for encoding/json", want, data)
			}
		}
	})
}
