package jsonrpc_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// request wraps params into a tools/call request with id 7.
func request(params string) string {
	return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":` + params + `}`
}

// bigObject returns an object with n filler keys k0..k(n-1); extra members
// are inserted before the filler key with the index given.
func bigObject(n int, extra map[int]string) string {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	add := func(m string) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(m)
	}
	for i := 0; i <= n; i++ {
		if m, ok := extra[i]; ok {
			add(m)
		}
		if i < n {
			add(fmt.Sprintf(`"k%d":%d`, i, i))
		}
	}
	b.WriteByte('}')
	return b.String()
}

func TestDuplicateKeysAreInvalid(t *testing.T) {
	tests := []struct {
		name string
		line string
	}{
		{"envelope duplicate", `{"jsonrpc":"2.0","id":7,"method":"a","method":"b"}`},
		{"envelope case variant", `{"jsonrpc":"2.0","id":7,"method":"a","Method":"b"}`},
		{"envelope id case variant", `{"jsonrpc":"2.0","id":7,"ID":8,"method":"a"}`},
		{"envelope jsonrpc duplicate", `{"jsonrpc":"2.0","jsonrpc":"2.0","id":7,"method":"a"}`},
		{"params duplicate", request(`{"name":"a","name":"b"}`)},
		{"params case variant", request(`{"name":"a","Name":"b"}`)},
		{"params case variant, upper first", request(`{"NAME":"a","name":"b"}`)},
		{"object inside array", request(`{"a":[1,{"k":1,"k":2}]}`)},
		{"nested duplicate", request(`{"name":"echo","arguments":{"text":"a","text":"b"}}`)},
		{"deeply nested duplicate", request(`{"a":{"b":{"c":[{"d":{"x":1,"x":2}}]}}}`)},
		{"escaped duplicate", request(`{"name":"a","n\u0061me":"b"}`)},
		{"escaped duplicate, escaped first", request(`{"n\u0061me":"a","name":"b"}`)},
		{"escaped case variant", request(`{"name":"a","\u004eame":"b"}`)},
		{"solidus escape", request(`{"a/b":1,"a\/b":2}`)},
		{"unicode case variant", request(`{"é":1,"É":2}`)},
		{"parent key after child object", request(`{"a":{"x":1},"A":2}`)},
		// The map path, for objects with more than 32 keys.
		{"map path duplicate", request(bigObject(40, map[int]string{3: `"name":1`, 20: `"name":2`}))},
		{"map path case variant", request(bigObject(40, map[int]string{3: `"name":1`, 20: `"Name":2`}))},
		{"map path variant after 33rd key", request(bigObject(40, map[int]string{0: `"name":1`, 38: `"Name":2`}))},
		{"map path both after 33rd key", request(bigObject(60, map[int]string{35: `"name":1`, 50: `"NAME":2`}))},
		{"map path duplicate of filler", request(bigObject(40, map[int]string{40: `"k1":9`}))},
		{"map path case variant of filler", request(bigObject(40, map[int]string{40: `"K39":9`}))},
		{"map path escaped", request(bigObject(40, map[int]string{1: `"name":1`, 39: `"n\u0061me":2`}))},
		{"map path nested duplicate", request(`{"arguments":` + bigObject(100, map[int]string{99: `"text":1`, 0: `"text":2`}) + `}`)},
		{"map path envelope", `{"jsonrpc":"2.0","id":7,"method":"m",` + bigObject(40, map[int]string{40: `"Id":1`})[1:]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			de := decodeErr(t, tt.line)
			if de.Err.Code != jsonrpc.CodeInvalidRequest {
				t.Errorf("code = %d (%s), want -32600", de.Err.Code, de.Err.Message)
			}
			if de.ID.Raw() != "7" {
				t.Errorf("id = %q, want 7", de.ID.Raw())
			}
		})
	}
}

func TestDistinctKeysAreValid(t *testing.T) {
	tests := []struct {
		name string
		line string
	}{
		{"same key in sibling objects", request(`{"a":{"x":1},"b":{"x":1,"y":2}}`)},
		{"same key in parent and child", request(`{"x":{"x":{"x":1}}}`)},
		{"same key across array elements", request(`{"items":[{"k":1},{"k":2},{"K":3}]}`)},
		{"prefix keys", request(`{"a":1,"ab":2,"abc":3,"b":4}`)},
		{"32 keys, pairwise path", request(bigObject(32, nil))},
		{"33 keys, map path", request(bigObject(33, nil))},
		{"500 keys", request(bigObject(500, nil))},
		{"big siblings sharing keys", request(`{"a":` + bigObject(40, nil) + `,"b":` + bigObject(40, nil) + `}`)},
		{"big child with parent's key", request(`{"k1":` + bigObject(40, nil) + `,"k2":1}`)},
		{"keys that only look similar", request(`{"a":1,"a ":2,"à":3,"ä":4}`)},
		// Case variants are accepted below the params object's own members.
		{"case variants in arguments", request(`{"name":"echo","arguments":{"text":"a","Text":"b"}}`)},
		{"case variants deeply nested", request(`{"a":{"b":{"c":[{"d":{"x":1,"X":2}}]}}}`)},
		{"case variants, map path nested", request(`{"arguments":` + bigObject(100, map[int]string{99: `"Text":1`, 0: `"text":2`}) + `}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mustDecode(t, tt.line)
		})
	}
}

// TestKeyCheckPathsAgree checks that the pairwise check (small objects) and
// the map check (objects with more than 32 keys) judge every pair of keys
// the same way, as strings.EqualFold does.
func TestKeyCheckPathsAgree(t *testing.T) {
	pairs := [][2]string{
		{"name", "Name"}, {"a", "b"}, {"é", "É"}, {"σ", "ς"}, {"σ", "Σ"},
		{"ſ", "s"}, {"ſ", "S"}, {"\u212a", "k"}, {"\u212a", "K"}, // long s, Kelvin sign
		{"ı", "i"}, {"ı", "I"}, {"İ", "i"}, {"İ", "I"}, // Turkish dotless and dotted i
		{"ß", "ẞ"}, {"ß", "ss"}, {"ǅ", "ǆ"}, {"ǅ", "Ǆ"}, {"Ω", "\u2126"}, // ohm sign
		{"ꭰ", "Ꭰ"}, // Cherokee
	}
	for _, p := range pairs {
		want := strings.EqualFold(p[0], p[1])
		members := map[int]string{0: fmt.Sprintf("%q:1", p[0]), 1: fmt.Sprintf("%q:2", p[1])}
		for _, n := range []int{2, 40} {
			_, err := jsonrpc.Decode([]byte(request(bigObject(n, members))))
			if got := err != nil; got != want {
				t.Errorf("keys %q and %q in an object of %d keys: rejected = %v, want %v (%v)", p[0], p[1], n+2, got, want, err)
			}
		}
	}
}

// TestCaseVariantKeys checks the look-alike key rule: keys that differ
// only in case make a message invalid in the envelope and in the objects
// that are its members' values (params above all), and are accepted
// deeper; repeated keys are refused at every depth.
func TestCaseVariantKeys(t *testing.T) {
	refused := []struct {
		name string
		line string
	}{
		{"envelope", `{"jsonrpc":"2.0","id":7,"method":"ping","Method":"x"}`},
		{"envelope, escaped", `{"jsonrpc":"2.0","id":7,"method":"ping","\u004dethod":"x"}`},
		{"envelope, non-ASCII fold", `{"jsonrpc":"2.0","id":7,"method":"ping","\u212aey":1,"key":2}`},
		{"tools/call params", request(`{"name":"echo","Name":"rm","arguments":{}}`)},
		{"tools/call params, arguments", request(`{"name":"echo","arguments":{},"Arguments":{"x":1}}`)},
		{"tools/call params, _meta", request(`{"name":"echo","_meta":{},"_META":{}}`)},
		{"initialize params", `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-11-25","ProtocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`},
		{"tools/list params", `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"a","Cursor":"b"}}`},
		{"result", `{"jsonrpc":"2.0","id":7,"result":{"action":"decline","Action":"accept"}}`},
		{"error", `{"jsonrpc":"2.0","id":7,"error":{"code":1,"Code":2,"message":"m"}}`},
		{"params, map path", request(bigObject(40, map[int]string{2: `"name":"echo"`, 39: `"NAME":"rm"`}))},
		// Repeated keys, at any depth.
		{"duplicate in _meta", request(`{"name":"echo","_meta":{"progressToken":1,"progressToken":2}}`)},
		{"duplicate in arguments", request(`{"name":"echo","arguments":{"ETag":"a","ETag":"b"}}`)},
		{"escaped duplicate in arguments", request(`{"name":"echo","arguments":{"etag":"a","\u0065tag":"b"}}`)},
		{"duplicate deep in capabilities", `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"capabilities":{"roots":{"listChanged":true,"listChanged":false}}}}`},
		{"duplicate in a result", `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","type":"image"}]}}`},
		{"duplicate, map path nested", request(`{"_meta":` + bigObject(50, map[int]string{10: `"k7":1`}) + `}`)},
	}
	for _, tt := range refused {
		t.Run("refused/"+tt.name, func(t *testing.T) {
			de := decodeErr(t, tt.line)
			if de.Err.Code != jsonrpc.CodeInvalidRequest || de.ID.Raw() != "7" {
				t.Errorf("code %d id %q (%s), want -32600 with id 7", de.Err.Code, de.ID.Raw(), de.Err.Message)
			}
		})
	}
	accepted := []struct {
		name string
		line string
	}{
		{"_meta", request(`{"name":"echo","_meta":{"ETag":"a","etag":"b"}}`)},
		{"arguments", request(`{"name":"echo","arguments":{"ETag":"a","etag":"b"}}`)},
		{"arguments, escaped", request(`{"name":"echo","arguments":{"ETag":"a","\u0065tag":"b"}}`)},
		{"arguments, non-ASCII fold", request(`{"name":"echo","arguments":{"\u212a":1,"k":2,"K":3}}`)},
		{"nested in arguments", request(`{"name":"echo","arguments":{"headers":{"Content-Type":"a","content-type":"b"}}}`)},
		{"array of objects in arguments", request(`{"name":"echo","arguments":{"rows":[{"Id":1,"id":2}]}}`)},
		{"array params", `{"jsonrpc":"2.0","id":7,"method":"m","params":[{"name":1,"Name":2}]}`},
		{"capabilities", `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"x":{},"X":{}},"clientInfo":{"name":"c","version":"1"}}}`},
		{"inside a result", `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"a","Text":"b"}]}}`},
		{"arguments, map path", request(`{"name":"echo","arguments":` + bigObject(40, map[int]string{0: `"ETag":"a"`, 39: `"etag":"b"`}) + `}`)},
	}
	for _, tt := range accepted {
		t.Run("accepted/"+tt.name, func(t *testing.T) {
			mustDecode(t, tt.line)
		})
	}
	// The message names the keys, in the order they came.
	de := decodeErr(t, request(`{"name":"echo","Name":"rm"}`))
	if want := `invalid request: keys "name" and "Name" differ only in case`; de.Err.Message != want {
		t.Errorf("message %q, want %q", de.Err.Message, want)
	}
}
