package schema

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"
)

type Node struct {
	Name     string `json:"name"`
	Children []Node `json:"children,omitempty"`
}

type Tree struct {
	Root  *TreeNode `json:"root"`
	Extra *TreeNode `json:"extra" jsonschema:"nullable"`
}

type TreeNode struct {
	Value int         `json:"value"`
	Kids  []*TreeNode `json:"kids"`
}

type Base struct {
	ID   string `json:"id"`
	Note string `json:"note,omitempty"`
}

type Meta struct {
	Tag string `json:"tag"`
}

type Embedding struct {
	Base
	*Meta
	Name string `json:"name"`
}

type Conflict struct {
	A
	B
	Own string `json:"x"`
}

type A struct {
	X string `json:"x"`
	Y string
	W string
}

type B struct {
	Y string
	V string `json:"W"`
}

type textish struct{}

func (textish) MarshalText() ([]byte, error) { return []byte("t"), nil }

type jsonish struct{}

func (jsonish) MarshalJSON() ([]byte, error) { return []byte("1"), nil }

type Kinds struct {
	S     string            `json:"s"`
	B     bool              `json:"b"`
	I     int               `json:"i"`
	I8    int8              `json:"i8"`
	U     uint              `json:"u"`
	U64   uint64            `json:"u64"`
	F     float64           `json:"f"`
	F32   float32           `json:"f32"`
	By    []byte            `json:"by"`
	Sl    []string          `json:"sl"`
	Ar    [2]int            `json:"ar"`
	M     map[string]int    `json:"m"`
	T     time.Time         `json:"t"`
	Raw   json.RawMessage   `json:"raw"`
	Any   any               `json:"any"`
	P     *string           `json:"p"`
	PP    **int             `json:"pp"`
	Txt   textish           `json:"txt"`
	JS    jsonish           `json:"js"`
	Q     int               `json:"q,string"`
	Opt   string            `json:"opt,omitzero"`
	MN    map[string]*Inner `json:"mn"`
	Sk    string            `json:"-"`
	Dash  string            `json:"-,"`
	un    string
	NoTag string
}

type Inner struct {
	V int `json:"v"`
}

func TestForKinds(t *testing.T) {
	got := mustFor[Kinds](t)
	want := `{"type":"object","properties":{` +
		`"s":{"type":"string"},"b":{"type":"boolean"},"i":{"type":"integer"},"i8":{"type":"integer","minimum":-128,"maximum":127},` +
		`"u":{"type":"integer","minimum":0},"u64":{"type":"integer","minimum":0},` +
		`"f":{"type":"number"},"f32":{"type":"number","minimum":-3.4028234663852886e+38,"maximum":3.4028234663852886e+38},` +
		`"by":{"type":"string","contentEncoding":"base64"},` +
		`"sl":{"type":"array","items":{"type":"string"}},` +
		`"ar":{"type":"array","items":{"type":"integer"},"minItems":2,"maxItems":2},` +
		`"m":{"type":"object","additionalProperties":{"type":"integer"}},` +
		`"t":{"type":"string","format":"date-time"},"raw":{},"any":{},` +
		`"p":{"type":"string"},"pp":{"type":"integer"},"txt":{"type":"string"},"js":{},` +
		`"q":{"type":"string"},"opt":{"type":"string"},` +
		`"mn":{"type":"object","additionalProperties":{"type":"object","properties":{"v":{"type":"integer"}},"required":["v"],"additionalProperties":false}},` +
		`"-":{"type":"string"},"NoTag":{"type":"string"}},` +
		`"required":["s","b","i","i8","u","u64","f","f32","by","sl","ar","m","t","raw","any","txt","js","q","mn","-","NoTag"],` +
		`"additionalProperties":false}`
	if got != want {
		t.Errorf("For[Kinds]:\n got %s\nwant %s", got, want)
	}
	if strings.Contains(got, "null") {
		t.Error("pointer fields produced a null union")
	}
}

func TestForTags(t *testing.T) {
	type Tagged struct {
		Desc    string   `json:"desc" description:"a <b> & \"c\""`
		Enum    string   `json:"enum" jsonschema:"enum=red|green|blue"`
		IntEnum int      `json:"intEnum" jsonschema:"enum=1|2|3"`
		Bounds  int      `json:"bounds" jsonschema:"minimum=1,maximum=10"`
		Excl    float64  `json:"excl" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1.5"`
		Len     string   `json:"len" jsonschema:"minLength=2,maxLength=5"`
		Pat     string   `json:"pat" jsonschema:"minLength=1,pattern=^a{1,3}$"`
		Pat2    string   `json:"pat2" pattern:"^[a-z]+,[0-9]$"`
		Fmt     string   `json:"fmt" jsonschema:"format=email"`
		Fmt2    string   `json:"fmt2" format:"uri"`
		DefS    string   `json:"defS" jsonschema:"default=hello"`
		DefS2   string   `json:"defS2" default:"a, b"`
		DefN    int      `json:"defN" default:"42"`
		DefB    bool     `json:"defB" default:"true"`
		DefL    []string `json:"defL" default:"[\"x\"]"`
		Items   []string `json:"items" jsonschema:"minItems=1,maxItems=3,enum=a|b"`
		Null    *int     `json:"null" jsonschema:"nullable"`
		NullE   string   `json:"nullE" jsonschema:"enum=a|b,nullable" default:"null"`
		UintMin uint     `json:"uintMin" jsonschema:"minimum=5"`
	}
	got := mustFor[Tagged](t)
	want := `{"type":"object","properties":{` +
		`"desc":{"type":"string","description":"a <b> & \"c\""},` +
		`"enum":{"type":"string","enum":["red","green","blue"]},` +
		`"intEnum":{"type":"integer","enum":[1,2,3]},` +
		`"bounds":{"type":"integer","minimum":1,"maximum":10},` +
		`"excl":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1.5},` +
		`"len":{"type":"string","minLength":2,"maxLength":5},` +
		`"pat":{"type":"string","minLength":1,"pattern":"^a{1,3}$"},` +
		`"pat2":{"type":"string","pattern":"^[a-z]+,[0-9]$"},` +
		`"fmt":{"type":"string","format":"email"},` +
		`"fmt2":{"type":"string","format":"uri"},` +
		`"defS":{"type":"string","default":"hello"},` +
		`"defS2":{"type":"string","default":"a, b"},` +
		`"defN":{"type":"integer","default":42},` +
		`"defB":{"type":"boolean","default":true},` +
		`"defL":{"type":"array","items":{"type":"string"},"default":["x"]},` +
		`"items":{"type":"array","items":{"type":"string","enum":["a","b"]},"minItems":1,"maxItems":3},` +
		`"null":{"type":["integer","null"]},` +
		`"nullE":{"type":["string","null"],"enum":["a","b",null],"default":null},` +
		`"uintMin":{"type":"integer","minimum":5}},` +
		`"required":["desc","enum","intEnum","bounds","excl","len","pat","pat2","fmt","fmt2","defS","defS2","defN","defB","defL","items","nullE","uintMin"],` +
		`"additionalProperties":false}`
	if got != want {
		t.Errorf("For[Tagged]:\n got %s\nwant %s", got, want)
	}
	mustCompile(t, got)
}

func TestForRecursion(t *testing.T) {
	tests := []struct {
		name string
		got  func() (json.RawMessage, error)
		want string
	}{
		{"self via root", func() (json.RawMessage, error) { return For[Node]() },
			`{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}},"required":["name"],"additionalProperties":false}`},
		{"pointer to root", func() (json.RawMessage, error) { return For[*Node]() },
			`{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}},"required":["name"],"additionalProperties":false}`},
		{"$defs", func() (json.RawMessage, error) { return For[Tree]() },
			`{"type":"object","properties":{"root":{"$ref":"#/$defs/TreeNode"},"extra":{"anyOf":[{"$ref":"#/$defs/TreeNode"},{"type":"null"}]}},"additionalProperties":false,` +
				`"$defs":{"TreeNode":{"type":"object","properties":{"value":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#/$defs/TreeNode"}}},"required":["value","kids"],"additionalProperties":false}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := tt.got()
			if err != nil {
				t.Fatal(err)
			}
			if string(raw) != tt.want {
				t.Errorf("\n got %s\nwant %s", raw, tt.want)
			}
			s := mustCompile(t, string(raw))
			if vs := s.Validate(json.RawMessage(`{"name":"a","children":[{"name":"b","children":[{"name":1}]}],"root":{"value":1,"kids":[{"value":"x","kids":[]}]}}`)); len(vs) == 0 {
				t.Error("a deep violation was not found")
			}
		})
	}
}

func TestForEmbedding(t *testing.T) {
	want := `{"type":"object","properties":{"id":{"type":"string"},"note":{"type":"string"},"tag":{"type":"string"},"name":{"type":"string"}},"required":["id","name"],"additionalProperties":false}`
	if got := mustFor[Embedding](t); got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	// x: own field wins (shallower); y: ambiguous at equal depth, dropped;
	// W: tagged B.V wins over untagged A.W.
	want = `{"type":"object","properties":{"W":{"type":"string"},"x":{"type":"string"}},"required":["W","x"],"additionalProperties":false}`
	if got := mustFor[Conflict](t); got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}

func TestForOptions(t *testing.T) {
	type Small struct {
		A string `json:"a"`
	}
	got, err := For[Small](AllowAdditional(), WithSchemaURI())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`
	if string(got) != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	type Empty struct{}
	if got := mustFor[Empty](t); got != `{"type":"object","additionalProperties":false}` {
		t.Errorf("For[Empty] = %s", got)
	}
}

func TestForDeterministic(t *testing.T) {
	first := mustFor[Kinds](t)
	for range 20 {
		if got := mustFor[Kinds](t); got != first {
			t.Fatalf("output changed between runs:\n%s\n%s", first, got)
		}
	}
}

func TestForErrors(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
		want []string // substrings of the message
	}{
		{"chan", reflect.TypeFor[struct{ Events chan int }](), []string{".Events", "chan int"}},
		{"func", reflect.TypeFor[struct{ F func() }](), []string{".F", "func()"}},
		{"complex", reflect.TypeFor[struct{ C complex128 }](), []string{".C", "complex128"}},
		{"int map key", reflect.TypeFor[struct{ M map[int]string }](), []string{".M", "map keys must be strings"}},
		{"nested in slice", reflect.TypeFor[struct{ L []struct{ C chan bool } }](), []string{".L[].C", "chan bool"}},
		{"unknown tag key", reflect.TypeFor[struct {
			A string `jsonschema:"minimun=1"`
		}](), []string{".A", `unknown jsonschema key "minimun"`}},
		{"bad number", reflect.TypeFor[struct {
			A int `jsonschema:"minimum=ten"`
		}](), []string{".A", "not a number"}},
		{"bound on string", reflect.TypeFor[struct {
			A string `jsonschema:"maximum=3"`
		}](), []string{"needs a numeric field"}},
		{"length on int", reflect.TypeFor[struct {
			A int `jsonschema:"minLength=3"`
		}](), []string{"needs a string field"}},
		{"bad enum", reflect.TypeFor[struct {
			A int `jsonschema:"enum=1|two"`
		}](), []string{`enum value "two"`}},
		{"bad default", reflect.TypeFor[struct {
			A int `default:"abc"`
		}](), []string{`default "abc"`}},
		{"bad pattern", reflect.TypeFor[struct {
			A string `pattern:"("`
		}](), []string{"pattern"}},
		{"nullable with value", reflect.TypeFor[struct {
			A string `jsonschema:"nullable=yes"`
		}](), []string{"nullable takes no value"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromType(tt.typ)
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error = %v, want *Error", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func mustFor[T any](t *testing.T) string {
	t.Helper()
	raw, err := For[T]()
	if err != nil {
		t.Fatalf("For: %v", err)
	}
	if !json.Valid(raw) {
		t.Fatalf("For produced invalid JSON: %s", raw)
	}
	return string(raw)
}

func mustCompile(t *testing.T, raw string) *Schema {
	t.Helper()
	s, err := Compile(json.RawMessage(raw))
	if err != nil {
		t.Fatalf("Compile(%s): %v", raw, err)
	}
	return s
}

// go-sdk's tag style: a bare jsonschema tag is the description.
func TestBareJSONSchemaTagIsDescription(t *testing.T) {
	type gosdkArgs struct {
		Name  string `json:"name" jsonschema:"the name of the person, in full"`
		Both  string `json:"both" description:"wins" jsonschema:"loses"`
		Bound int    `json:"bound" jsonschema:"minimum=1"`
		Maybe *int   `json:"maybe,omitempty" jsonschema:"nullable"`
	}
	raw, err := For[gosdkArgs]()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"name":{"type":"string","description":"the name of the person, in full"}`,
		`"both":{"type":"string","description":"wins"}`,
		`"bound":{"type":"integer","minimum":1`,
		`"maybe":{"type":["integer","null"]`,
	} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("schema lacks %s:\n%s", want, raw)
		}
	}
}
