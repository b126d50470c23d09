package tool_test

import (
	"context"
	"errors"
	"math"
	"net/netip"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/contract"
	"github.com/mcpwire/mcpwire/tool"
)

// The types of TestZeroValuesKeepTheContract: one of every kind inference
// supports.

type zeroLeaf struct {
	Name  string  `json:"name"`
	Score float64 `json:"score"`
}

type zeroNested struct {
	Leaf  zeroLeaf   `json:"leaf"`
	Leafs []zeroLeaf `json:"leafs"`
	Inner struct {
		Tags []string `json:"tags"`
	} `json:"inner"`
}

type zeroPointers struct {
	Text     *string           `json:"text"`
	Leaf     *zeroLeaf         `json:"leaf"`
	Deep     **int             `json:"deep"`
	Nullable *zeroLeaf         `json:"nullable" jsonschema:"nullable"`
	Raw      *json.RawMessage  `json:"raw"`
	Omitted  *string           `json:"omitted,omitempty"`
	Leafs    []*zeroLeaf       `json:"leafs"`
	ByName   map[string]*int   `json:"byName"`
	When     *time.Time        `json:"when"`
	Quoted   *int              `json:"quoted,string"`
	Labels   *map[string]int   `json:"labels"`
	Opt      *[]string         `json:"opt,omitzero"`
	Any      any               `json:"any"`
	Strs     map[string]string `json:"strs,omitempty"`
	Stringer *netip.Addr       `json:"addr"`
}

type zeroMaps struct {
	Lists  map[string][]string            `json:"lists"`
	Nested map[string]map[string][]int    `json:"nested"`
	Leafs  map[string]zeroLeaf            `json:"leafs"`
	ByAddr map[netip.Addr][]string        `json:"byAddr"`
	Deep   map[string][]map[string][]bool `json:"deep"`
}

type zeroArrays struct {
	Fixed   [3]int        `json:"fixed"`
	Leafs   [2]zeroLeaf   `json:"leafs"`
	Ptrs    [2]*zeroLeaf  `json:"ptrs"`
	Lists   [2][]string   `json:"lists"`
	Bytes   [4]byte       `json:"bytes"`
	Grid    [2][2]float32 `json:"grid"`
	NilList [][]string    `json:"nilList"`
}

type ZeroBase struct {
	ID   string   `json:"id"`
	Tags []string `json:"tags"`
}

type ZeroMeta struct {
	Labels map[string]string `json:"labels"`
}

type zeroEmbedded struct {
	ZeroBase
	*ZeroMeta
	Name string `json:"name"`
}

type zeroText int

func (z zeroText) MarshalText() ([]byte, error) { return []byte("level-" + string(rune('0'+z))), nil }

type zeroSpecial struct {
	When   time.Time         `json:"when"`
	Bytes  []byte            `json:"bytes"`
	Raw    json.RawMessage   `json:"raw"`
	Addr   netip.Addr        `json:"addr"`
	Level  zeroText          `json:"level"`
	Levels []zeroText        `json:"levels"`
	Dur    time.Duration     `json:"dur"`
	Number json.Number       `json:"number"`
	Any    any               `json:"any"`
	Map    map[string]any    `json:"map"`
	Raws   []json.RawMessage `json:"raws"`
}

type zeroTree struct {
	Value    int                  `json:"value"`
	Children []zeroTree           `json:"children"`
	Parent   *zeroTree            `json:"parent"`
	Index    map[string]*zeroTree `json:"index"`
}

type zeroList struct {
	Head *zeroNode `json:"head"`
	Tail *zeroNode `json:"tail" jsonschema:"nullable"`
}

type zeroNode struct {
	Item string     `json:"item"`
	Next *zeroNode  `json:"next"`
	Kids []zeroNode `json:"kids"`
}

type zeroScalars struct {
	B   bool    `json:"b"`
	I   int     `json:"i"`
	I8  int8    `json:"i8"`
	U   uint64  `json:"u"`
	F   float32 `json:"f"`
	S   string  `json:"s"`
	Q   int     `json:"q,string"`
	QB  bool    `json:"qb,string"`
	Opt int     `json:"opt,omitempty"`
}

// zeroCall builds a tool returning the zero Out and calls it through the
// whole contract.
func zeroCall[Out any](t *testing.T) *tool.Result {
	t.Helper()
	tl, err := compile(tool.New("zero", "", noop[struct{}, Out]()))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	res, err := call(t, tl, `{}`)
	if err != nil {
		t.Fatalf("the zero value breaks the contract: %v", err)
	}
	if res.IsError {
		t.Fatalf("isError result: %q", text(res))
	}
	raw, ok := res.Structured.(json.RawMessage)
	wantText := string(raw)
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &wantText) != nil {
		t.Fatalf("structured %s is not a JSON string", raw)
	}
	if !ok || len(res.Content) != 1 || text(res) != wantText {
		t.Fatalf("structured %v and text %q differ", res.Structured, text(res))
	}
	return res
}

// The zero value of every inferable type conforms to the output schema
// inferred from it: nil slices are [], nil maps {}, nil pointer members
// are left out (null where the schema accepts null), and nil pointers
// without an absent form are their element's zero value.
func TestZeroValuesKeepTheContract(t *testing.T) {
	tests := []struct {
		name string
		run  func(*testing.T) *tool.Result
		want string // "" to check the contract only
	}{
		{"slices and maps", zeroCall[struct {
			Tags   []string          `json:"tags"`
			Labels map[string]string `json:"labels"`
		}], `{"tags":[],"labels":{}}`},
		{"scalars", zeroCall[zeroScalars], `{"b":false,"i":0,"i8":0,"u":0,"f":0,"s":"","q":"0","qb":"false"}`},
		{"nested structs", zeroCall[zeroNested], `{"leaf":{"name":"","score":0},"leafs":[],"inner":{"tags":[]}}`},
		{"pointers", zeroCall[zeroPointers], `{"nullable":null,"raw":null,"leafs":[],"byName":{},"any":null}`},
		{"maps of slices", zeroCall[zeroMaps], `{"lists":{},"nested":{},"leafs":{},"byAddr":{},"deep":{}}`},
		{"arrays", zeroCall[zeroArrays], `{"fixed":[0,0,0],"leafs":[{"name":"","score":0},{"name":"","score":0}],` +
			`"ptrs":[{"name":"","score":0},{"name":"","score":0}],"lists":[[],[]],"bytes":[0,0,0,0],"grid":[[0,0],[0,0]],"nilList":[]}`},
		{"embedded structs", zeroCall[zeroEmbedded], `{"id":"","tags":[],"name":""}`},
		{"time, bytes, raw JSON, text marshalers", zeroCall[zeroSpecial], ""},
		{"recursive type", zeroCall[zeroTree], `{"value":0,"children":[],"index":{}}`},
		{"recursive type through pointers", zeroCall[zeroList], `{"tail":null}`},
		{"pointer result", zeroCall[*zeroLeaf], `{"name":"","score":0}`},
		{"pointer to a recursive result", zeroCall[*zeroNode], `{"item":"","kids":[]}`},
		{"slice result", zeroCall[[]zeroLeaf], `[]`},
		{"map result", zeroCall[map[string][]int], `{}`},
		{"bytes result", zeroCall[[]byte], `""`},
		{"time result", zeroCall[time.Time], `"0001-01-01T00:00:00Z"`},
		{"raw result", zeroCall[json.RawMessage], `null`},
		{"any result", zeroCall[any], `null`},
		{"array of pointers result", zeroCall[[2]*int], `[0,0]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := tt.run(t)
			if got := string(res.Structured.(json.RawMessage)); tt.want != "" && got != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// Filled values keep the same encoding rules: nil inside non-nil values
// too, and values as encoding/json writes them otherwise.
func TestStructuredEncoding(t *testing.T) {
	type item struct {
		ID   int      `json:"id"`
		Tags []string `json:"tags"`
		Note *string  `json:"note"`
	}
	type out struct {
		Items  []item            `json:"items"`
		ByName map[string][]item `json:"byName"`
		HTML   string            `json:"html"`
	}
	note := "n"
	tl := tool.New("enc", "", func(context.Context, struct{}) (out, error) {
		return out{
			Items:  []item{{ID: 1}, {ID: 2, Tags: []string{"a"}, Note: &note}},
			ByName: map[string][]item{"b": nil, "a": {{ID: 3}}},
			HTML:   "<b>&</b>",
		}, nil
	})
	res, err := call(t, tl, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"items":[{"id":1,"tags":[]},{"id":2,"tags":["a"],"note":"n"}],"byName":{"a":[{"id":3,"tags":[]}],"b":[]},"html":"<b>&</b>"}`
	if got := text(res); got != want || string(res.Structured.(json.RawMessage)) != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}

// StructuredResult encodes as a typed handler does.
func TestStructuredResultNilSlice(t *testing.T) {
	res, err := tool.StructuredResult(struct {
		L []int `json:"l"`
	}{})
	if err != nil || text(res) != `{"l":[]}` {
		t.Errorf("StructuredResult = %q, %v", text(res), err)
	}
}

// An Out with no JSON form breaks the contract: the result names the value
// by its JSON pointer, never by a Go type.
func TestUnencodableOut(t *testing.T) {
	type out struct {
		Scores []float64 `json:"scores"`
		Extra  any       `json:"extra"`
	}
	tests := []struct {
		name string
		out  out
		want string
	}{
		{"NaN", out{Scores: []float64{1, math.NaN()}}, "encoding structured content: /scores/1: NaN is not a JSON number (JSON numbers are finite)"},
		{"channel", out{Extra: map[string]any{"c": make(chan int)}}, "encoding structured content: /extra/c: the value has no JSON form"},
		{"year past 9999", out{Extra: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}, "encoding structured content: /extra: the date-time cannot be written as RFC 3339"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := tool.New("bad", "", func(context.Context, struct{}) (out, error) { return tt.out, nil })
			res, err := call(t, tl, `{}`)
			if !errors.Is(err, contract.ErrContract) || !res.IsError {
				t.Fatalf("result %q, error %v: want a contract violation", text(res), err)
			}
			if !strings.Contains(text(res), tt.want) {
				t.Errorf("text %q lacks %q", text(res), tt.want)
			}
			for _, leak := range []string{"float64", "chan", "json:", "time.Time", "MarshalJSON"} {
				if strings.Contains(text(res), leak) {
					t.Errorf("text names %q: %q", leak, text(res))
				}
			}
		})
	}
}

// A raw handler's Go value that has no JSON form is named the same way.
func TestUnencodableStructured(t *testing.T) {
	tl := tool.New("raw", "", func(context.Context, struct{}) (*tool.Result, error) {
		return &tool.Result{Structured: map[string]any{"score": math.Inf(-1)}}, nil
	})
	res, err := call(t, tl, `{}`)
	want := "encoding structured content: /score: -Inf is not a JSON number (JSON numbers are finite)"
	if !errors.Is(err, contract.ErrContract) || !strings.Contains(text(res), want) || strings.Contains(text(res), "json:") {
		t.Errorf("text %q, error %v; want %q", text(res), err, want)
	}
}
