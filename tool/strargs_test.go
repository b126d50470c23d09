package tool

import (
	"reflect"
	"testing"
	"unsafe"

	json "github.com/goccy/go-json"
)

// strIn is a struct of plain strings: the fast path's shape.
type strIn struct {
	Text  string `json:"text"`
	Label string `json:"label,omitempty"`
	Plain string // no tag: its Go name
	Skip  string `json:"-"`
	Dash  string `json:"-,"`
	inner string
}

func TestStringArgsFor(t *testing.T) {
	type withInt struct {
		A string `json:"a"`
		N int    `json:"n"`
	}
	type quoted struct {
		A string `json:"a,string"`
	}
	type named string
	type withNamed struct {
		A named `json:"a"` // a string kind without methods: read as a string
	}
	type embedded struct {
		strIn
	}
	for _, tc := range []struct {
		t    reflect.Type
		want []string
	}{
		{reflect.TypeFor[strIn](), []string{"text", "label", "Plain", "-"}},
		{reflect.TypeFor[withNamed](), []string{"a"}},
		{reflect.TypeFor[withInt](), nil},
		{reflect.TypeFor[quoted](), nil},
		{reflect.TypeFor[embedded](), nil},
		{reflect.TypeFor[*strIn](), nil},
		{reflect.TypeFor[struct{}](), nil},
		{reflect.TypeFor[map[string]string](), nil},
	} {
		p := stringArgsFor(tc.t)
		var got []string
		if p != nil {
			got = p.names
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v: names %q, want %q", tc.t, got, tc.want)
		}
	}
}

// TestStringArgsAgrees: where the fast path decodes, it decodes what
// goccy/go-json does; where it declines, goccy/go-json is left to decide.
func TestStringArgsAgrees(t *testing.T) {
	for _, tc := range []struct {
		args string
		fast bool
	}{
		{`{"text":"hello"}`, true},
		{`{"text":"h\u00e9llo \"q\" \\ \n\ud83d\ude00","label":"x"}`, true},
		{`{"text":"a","text":"b"}`, true},
		{`{"text":null,"label":"l"}`, true},
		{`{"unknown":{"deep":[1,2]},"text":"t"}`, true},
		{`{"Plain":"p","-":"d","Skip":"s"}`, true},
		{` { "text" : "spaced" } `, true},
		{`{"t\u0065xt":"escaped key"}`, true},
		{`{}`, true},
		{`{"TEXT":"folded"}`, false},
		{`{"plain":"folded"}`, false},
		{`{"text":1}`, false},
		{`{"text":["a"]}`, false},
		{`{"text":"cut`, false},
		{`["text"]`, false},
		{`"text"`, false},
		{"{\"text\":\"bad \xff utf-8\"}", false},
	} {
		var fast strIn
		ok := stringArgsFor(reflect.TypeFor[strIn]()).decode(json.RawMessage(tc.args), unsafe.Pointer(&fast))
		if ok != tc.fast {
			t.Errorf("%s: fast path %v, want %v", tc.args, ok, tc.fast)
		}
		if !ok {
			continue
		}
		var slow strIn
		if err := json.Unmarshal([]byte(tc.args), &slow); err != nil {
			t.Errorf("%s: the fast path decoded what goccy/go-json refuses: %v", tc.args, err)
		}
		if fast != slow {
			t.Errorf("%s: fast %+v, goccy/go-json %+v", tc.args, fast, slow)
		}
	}
}

// FuzzStringArgs holds the fast path to goccy/go-json on any input: when
// it decodes, goccy/go-json accepts the input and decodes the same.
func FuzzStringArgs(f *testing.F) {
	for _, s := range []string{`{"text":"hello"}`, `{"text":"a\u0000\"","label":null}`, `{"TEXT":"x"}`, `{"text":1}`, `{"x":{"y":"z"},"Plain":"\ud800"}`} {
		f.Add([]byte(s))
	}
	p := stringArgsFor(reflect.TypeFor[strIn]())
	f.Fuzz(func(t *testing.T, data []byte) {
		var fast strIn
		if !p.decode(data, unsafe.Pointer(&fast)) {
			return
		}
		var slow strIn
		if err := json.Unmarshal(data, &slow); err != nil {
			t.Fatalf("%q: decoded by the fast path, refused by goccy/go-json: %v", data, err)
		}
		if fast != slow {
			t.Fatalf("%q: fast %+v, goccy/go-json %+v", data, fast, slow)
		}
	})
}
