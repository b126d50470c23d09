package natural

import (
	"errors"
	"math"
	"math/big"
	"net/netip"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"
)

func wire(t *testing.T, v any) string {
	t.Helper()
	b, err := For(reflect.TypeOf(v)).Encode(reflect.ValueOf(v))
	if err != nil {
		t.Fatalf("encode %#v: %v", v, err)
	}
	return string(b)
}

type encSpaced struct{}

func (encSpaced) MarshalJSON() ([]byte, error) { return []byte(" { \"a\" : [ 1 , \"x y\" ] }\n"), nil }

type encPtrMarshaler struct{ n int }

func (p *encPtrMarshaler) MarshalJSON() ([]byte, error) { return []byte(`"ptr"`), nil }

type encPtrText struct{ n int }

func (p *encPtrText) MarshalText() ([]byte, error) { return []byte("text"), nil }

type encKey struct{ a, b int }

func (k encKey) MarshalText() ([]byte, error) {
	return []byte(string(rune('a'+k.a)) + string(rune('a'+k.b))), nil
}

type encZeroer struct{ set bool }

func (z encZeroer) IsZero() bool { return !z.set }

type encEmbedA struct {
	X string `json:"x"`
	Y string
	W string
}

type encEmbedB struct {
	Y string
	V string `json:"W"`
}

type encConflict struct {
	encEmbedA
	*encEmbedB
	Own string `json:"own"`
}

type encFields struct {
	S     string          `json:"s"`
	I     int64           `json:"i,omitempty"`
	U     uint8           `json:"u"`
	F32   float32         `json:"f32"`
	F64   float64         `json:"f64"`
	B     bool            `json:"b,string"`
	Q     int             `json:"q,string"`
	QS    string          `json:"qs,string"`
	QF    *float64        `json:"qf,string"`
	By    []byte          `json:"by"`
	Arr   [2]uint16       `json:"arr"`
	M     map[string]int  `json:"m"`
	MI    map[int]string  `json:"mi"`
	MK    map[encKey]bool `json:"mk"`
	T     time.Time       `json:"t"`
	Raw   json.RawMessage `json:"raw"`
	Sp    encSpaced       `json:"sp"`
	PM    encPtrMarshaler `json:"pm"`
	PT    encPtrText      `json:"pt"`
	Addr  netip.Addr      `json:"addr"`
	Big   *big.Int        `json:"big"`
	Z     encZeroer       `json:"z,omitzero"`
	Z2    encZeroer       `json:"z2,omitzero"`
	E     string          `json:"e,omitempty"`
	Any   any             `json:"any"`
	Num   json.Number     `json:"num"`
	Dur   time.Duration   `json:"dur"`
	Skip  string          `json:"-"`
	Dash  string          `json:"-,"`
	NoTag string
	priv  string
	L     []map[string]any  `json:"l"`
	Ptr   *map[string][]int `json:"ptr"`
}

// The wire model encodes a value that has no nil slice, map or pointer
// exactly as goccy/go-json (encoding/json without HTML escaping) does.
func TestEncodeLikeEncodingJSON(t *testing.T) {
	qf := 2.5
	full := encFields{
		S: "a\"\\/\b\f\n\r\t\x01\x1f\x7f<>&\u2028\u2029é😀\xff\xc3(", I: -7, U: 255, F32: 3.4e38, F64: 1e21, B: true, Q: 42, QS: `x"y`, QF: &qf,
		By: []byte{0, 1, 2, 250}, Arr: [2]uint16{1, 65535},
		M: map[string]int{"b": 2, "a": 1, "": 0, "é": 3}, MI: map[int]string{10: "x", -2: "y", 9: "z"},
		MK:  map[encKey]bool{{1, 2}: true, {0, 0}: false},
		T:   time.Date(2025, 3, 14, 9, 30, 0, 123456789, time.FixedZone("x", 3600)),
		Raw: json.RawMessage(" [ 1 ,\n 2 ] "), Addr: netip.MustParseAddr("::1"), Big: big.NewInt(-12345678901234),
		Z2: encZeroer{set: true}, Any: []any{1.5, "s", nil, map[string]any{"k": []int{1}}}, Num: "1.5e3",
		Dur: time.Second, Skip: "no", Dash: "dash", NoTag: "nt", priv: "p",
		L: []map[string]any{{"z": 1, "a": true}}, Ptr: &map[string][]int{"k": {1, 2}},
	}
	values := []any{
		&full, []encFields{full},
		"plain", 0.0, -0.5, 1e-7, 1e-6, 123456789.0, 1e20, 1e21, float32(1e-7), float32(16777216), math.MaxFloat64, math.SmallestNonzeroFloat64,
		int8(-128), uint64(math.MaxUint64), true, []any{}, map[string]any{},
		encConflict{encEmbedA: encEmbedA{X: "x", Y: "y", W: "w"}, encEmbedB: &encEmbedB{Y: "yb", V: "v"}, Own: "o"},
		encConflict{encEmbedA: encEmbedA{X: "x"}},
		[]encPtrText{{}},
		struct {
			A int `json:"a"`
			B struct {
				C []string `json:"c"`
			} `json:"b"`
		}{A: 1},
	}
	for _, v := range values {
		want, err := json.MarshalWithOption(v, json.DisableHTMLEscape())
		if err != nil {
			t.Fatalf("goccy: %v", err)
		}
		// goccy writes a nil slice or map as null: the one difference.
		want = []byte(strings.ReplaceAll(string(want), `"c":null`, `"c":[]`))
		if got := wire(t, v); got != string(want) {
			t.Errorf("%T:\n got %s\nwant %s", v, got, want)
		}
	}
}

// A method with a pointer receiver is called wherever the schema inferred
// from the type expects its form, even on a value encoding/json would not
// call it for (a value not addressable: the result itself, a map value).
func TestEncodePointerMethods(t *testing.T) {
	type out struct {
		PM encPtrMarshaler `json:"pm"`
		PT encPtrText      `json:"pt"`
	}
	if got := wire(t, out{}); got != `{"pm":"ptr","pt":"text"}` {
		t.Errorf("struct value: %s", got)
	}
	if got := wire(t, map[string]encPtrText{"a": {}}); got != `{"a":"text"}` {
		t.Errorf("map value: %s", got)
	}
	if got := wire(t, any(encPtrMarshaler{})); got != `"ptr"` {
		t.Errorf("result: %s", got)
	}
}

type encNode struct {
	Next *encNode  `json:"next"`
	Kids []encNode `json:"kids,omitempty"`
	Null *encNode  `json:"null" jsonschema:"nullable"`
}

// What differs from encoding/json: nil slices and maps, nil pointers.
func TestEncodeNilValues(t *testing.T) {
	type inner struct {
		A int `json:"a"`
	}
	type Embedded struct {
		E string `json:"e"`
	}
	type out struct {
		*Embedded
		S     []int             `json:"s"`
		M     map[string]int    `json:"m"`
		By    []byte            `json:"by"`
		P     *inner            `json:"p"`
		PN    *inner            `json:"pn" jsonschema:"nullable"`
		PR    *json.RawMessage  `json:"pr"`
		I     any               `json:"i"`
		Items []*inner          `json:"items"`
		Vals  map[string]*inner `json:"vals"`
		Arr   [1]*int           `json:"arr"`
		OE    []int             `json:"oe,omitempty"`
	}
	got := wire(t, out{Items: []*inner{nil, {A: 1}}, Vals: map[string]*inner{"x": nil}})
	want := `{"s":[],"m":{},"by":"","pn":null,"pr":null,"i":null,"items":[{"a":0},{"a":1}],"vals":{"x":{"a":0}},"arr":[0]}`
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	if got := wire(t, &encNode{Next: &encNode{}}); got != `{"next":{"null":null},"null":null}` {
		t.Errorf("recursive: %s", got)
	}
	if got := wire(t, (*inner)(nil)); got != `{"a":0}` {
		t.Errorf("nil root pointer: %s", got)
	}
	if got := wire(t, (*json.RawMessage)(nil)); got != `null` {
		t.Errorf("nil root pointer to raw JSON: %s", got)
	}
}

func TestEncodeErrors(t *testing.T) {
	cycle := &encNode{}
	cycle.Next = cycle
	type bad struct {
		F   float32         `json:"f"`
		Raw json.RawMessage `json:"raw"`
		Any any             `json:"any"`
	}
	tests := []struct {
		v    any
		want string
	}{
		{bad{F: float32(math.Inf(1))}, "encoding structured content: /f: +Inf is not a JSON number (JSON numbers are finite)"},
		{bad{Raw: json.RawMessage(`{`)}, "encoding structured content: /raw: the value's custom JSON encoding is not valid JSON"},
		{bad{Any: map[string]any{"a/b": []any{func() {}}}}, "encoding structured content: /any/a~1b/0: the value has no JSON form"},
		{bad{Any: map[[2]int]int{{1, 2}: 3}}, "encoding structured content: /any: the value's keys cannot be written as JSON member names"},
		{bad{Any: json.Number("x")}, `encoding structured content: /any: the number "x" is not a JSON number`},
		{cycle, "levels (a pointer cycle?)"},
		{time.Date(2025, 1, 1, 0, 0, 0, 0, time.FixedZone("far", 25*3600)), "(root): the date-time cannot be written as RFC 3339"},
		{complex(1, 2), "encoding structured content: (root): the value has no JSON form"},
	}
	for _, tt := range tests {
		_, err := For(reflect.TypeOf(tt.v)).Encode(reflect.ValueOf(tt.v))
		var ee *encodeError
		if !errors.As(err, &ee) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%T: error %v, want %q", tt.v, err, tt.want)
		}
	}
}

// Encoders are compiled once per type and shared between goroutines.
func TestEncodeConcurrent(t *testing.T) {
	type deep struct {
		Kids []deep           `json:"kids"`
		Map  map[string]*deep `json:"map"`
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			v := deep{Kids: []deep{{}}, Map: map[string]*deep{"a": {}}}
			b, err := For(reflect.TypeOf(v)).Encode(reflect.ValueOf(v))
			if err != nil || string(b) != `{"kids":[{"kids":[],"map":{}}],"map":{"a":{"kids":[],"map":{}}}}` {
				t.Errorf("%s, %v", b, err)
			}
		})
	}
	wg.Wait()
}
