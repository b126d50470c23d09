package args

import (
	"errors"
	"math"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpwire/mcpwire/tool"
)

// get is one getter call and what it must return.
type get struct {
	call func(r *Reader) any
	want any
}

func TestGetters(t *testing.T) {
	tests := []struct {
		name     string
		raw      string
		gets     []get
		problems []string
	}{
		{
			name: "all good",
			raw:  `{"s":"héllo","i":-42,"f":2.5,"b":true,"e":"append","l":["a","b"]}`,
			gets: []get{
				{func(r *Reader) any { return r.String("s") }, "héllo"},
				{func(r *Reader) any { return r.Int("i") }, int64(-42)},
				{func(r *Reader) any { return r.Number("f") }, 2.5},
				{func(r *Reader) any { return r.Bool("b") }, true},
				{func(r *Reader) any { return r.Enum("e", "overwrite", "append") }, "append"},
				{func(r *Reader) any { return r.Strings("l") }, []string{"a", "b"}},
			},
		},
		{
			name: "integers written as whole numbers",
			raw:  `{"a":3.0,"b":1e3,"c":-0,"d":9223372036854775807,"e":-9223372036854775808,"f":5}`,
			gets: []get{
				{func(r *Reader) any { return r.Int("a") }, int64(3)},
				{func(r *Reader) any { return r.Int("b") }, int64(1000)},
				{func(r *Reader) any { return r.Int("c") }, int64(0)},
				{func(r *Reader) any { return r.Int("d") }, int64(math.MaxInt64)},
				{func(r *Reader) any { return r.Int("e") }, int64(math.MinInt64)},
				{func(r *Reader) any { return r.Number("f") }, 5.0},
			},
		},
		{
			name: "optional values absent or null take the default",
			raw:  `{"n":null}`,
			gets: []get{
				{func(r *Reader) any { return r.OptString("n", "d") }, "d"},
				{func(r *Reader) any { return r.OptInt("x", 7) }, int64(7)},
				{func(r *Reader) any { return r.OptNumber("x", 0.5) }, 0.5},
				{func(r *Reader) any { return r.OptBool("x", true) }, true},
				{func(r *Reader) any { return r.OptEnum("x", "a", "a", "b") }, "a"},
				{func(r *Reader) any { return r.OptStrings("x", []string{"z"}) }, []string{"z"}},
				{func(r *Reader) any { return r.Has("n") }, false},
			},
		},
		{
			name: "optional values present",
			raw:  `{"s":"v","i":2,"f":1,"b":false,"e":"b","l":[]}`,
			gets: []get{
				{func(r *Reader) any { return r.OptString("s", "d") }, "v"},
				{func(r *Reader) any { return r.OptInt("i", 7) }, int64(2)},
				{func(r *Reader) any { return r.OptNumber("f", 0.5) }, 1.0},
				{func(r *Reader) any { return r.OptBool("b", true) }, false},
				{func(r *Reader) any { return r.OptEnum("e", "a", "a", "b") }, "b"},
				{func(r *Reader) any { return r.OptStrings("l", []string{"z"}) }, []string{}},
				{func(r *Reader) any { return r.Has("s") }, true},
			},
		},
		{
			name: "every problem is collected",
			raw:  `{"s":5,"i":"ten","f":"1.5","b":1,"e":"delete","l":["a",2,null],"w":2.5,"big":1e19}`,
			gets: []get{
				{func(r *Reader) any { return r.String("s") }, ""},
				{func(r *Reader) any { return r.Int("i") }, int64(0)},
				{func(r *Reader) any { return r.Number("f") }, 0.0},
				{func(r *Reader) any { return r.Bool("b") }, false},
				{func(r *Reader) any { return r.Enum("e", "overwrite", "append") }, ""},
				{func(r *Reader) any { return r.Strings("l") }, []string(nil)},
				{func(r *Reader) any { return r.Int("w") }, int64(0)},
				{func(r *Reader) any { return r.OptInt("big", 4) }, int64(4)},
				{func(r *Reader) any { return r.String("missing") }, ""},
			},
			problems: []string{
				`"s" must be a string; got the number 5`,
				`"i" must be an integer; got the string "ten"`,
				`"f" must be a number; got the string "1.5"`,
				`"b" must be true or false; got the number 1`,
				`"e" must be one of "overwrite", "append"; got the string "delete"`,
				`"l"[1] must be a string; got the number 2`,
				`"l"[2] must be a string; got null`,
				`"w" must be a whole number; got the number 2.5`,
				`"big" must fit in a 64-bit integer; got the number 1e19`,
				`"missing" is required`,
			},
		},
		{
			name: "null for a required argument is missing",
			raw:  `{"s":null}`,
			gets: []get{{func(r *Reader) any { return r.String("s") }, ""}},
			problems: []string{
				`"s" is required`,
			},
		},
		{
			name: "keys match exactly",
			raw:  `{"Path":"a"}`,
			gets: []get{{func(r *Reader) any { return r.OptString("path", "none") }, "none"}},
		},
		{
			name: "wrong types keep the default of optional getters",
			raw:  `{"s":[],"e":{},"l":"a","f":1e999}`,
			gets: []get{
				{func(r *Reader) any { return r.OptString("s", "d") }, "d"},
				{func(r *Reader) any { return r.OptEnum("e", "a", "a") }, "a"},
				{func(r *Reader) any { return r.OptStrings("l", []string{"z"}) }, []string{"z"}},
				{func(r *Reader) any { return r.OptNumber("f", 1) }, 1.0},
			},
			problems: []string{
				`"s" must be a string; got an array`,
				`"e" must be one of "a"; got an object`,
				`"l" must be an array of strings; got the string "a"`,
				`"f" is out of the range of a 64-bit float; got the number 1e999`,
			},
		},
		{
			name:     "not an object: one problem only",
			raw:      `[1,2]`,
			gets:     []get{{func(r *Reader) any { return r.String("s") }, ""}, {func(r *Reader) any { return r.OptInt("i", 3) }, int64(3)}},
			problems: []string{"the arguments must be a JSON object"},
		},
		{
			name: "long values are clipped",
			raw:  `{"s":"` + strings.Repeat("é", 30) + `"}`,
			gets: []get{{func(r *Reader) any { return r.Int("s") }, int64(0)}},
			problems: []string{
				`"s" must be an integer; got the string "` + strings.Repeat("é", 19) + `…`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse(json.RawMessage(tt.raw))
			for i, g := range tt.gets {
				if d := cmp.Diff(g.want, g.call(r)); d != "" {
					t.Errorf("getter %d (-want +got):\n%s", i, d)
				}
			}
			if d := cmp.Diff(tt.problems, r.Problems()); d != "" {
				t.Errorf("problems (-want +got):\n%s", d)
			}
		})
	}
}

func TestResultListsEveryProblem(t *testing.T) {
	r := Parse(json.RawMessage(`{"a":"x","c":true}`))
	r.Int("a")
	r.String("b")
	r.Check("c", errors.New("must be false for now"))
	r.Check("c", nil)
	res := r.Result()
	if res == nil || !res.IsError || len(res.Content) != 1 {
		t.Fatalf("Result() = %#v", res)
	}
	want := "invalid arguments:\n" +
		`- "a" must be an integer; got the string "x"` + "\n" +
		`- "b" is required` + "\n" +
		`- "c" must be false for now`
	if got := res.Content[0].(*tool.Text).Text; got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	var e *Error
	if err := r.Err(); !errors.As(err, &e) || len(e.Problems) != 3 || err.Error() != want {
		t.Errorf("Err() = %v", err)
	}
}

func TestNoProblemNoResult(t *testing.T) {
	r := Parse(json.RawMessage(`{"a":1}`))
	r.Int("a")
	if r.Result() != nil || r.Err() != nil || r.Problems() != nil {
		t.Errorf("a clean read reported %v", r.Problems())
	}
}

func TestRejectUnknown(t *testing.T) {
	r := Parse(json.RawMessage(`{"path":"a","zeta":1,"alpha":2,"checked":3,"probed":null}`))
	r.String("path")
	r.Check("checked", nil)
	r.Has("probed")
	r.RejectUnknown()
	want := []string{`"alpha" is not an argument of this tool`, `"zeta" is not an argument of this tool`}
	if d := cmp.Diff(want, r.Problems()); d != "" {
		t.Errorf("problems (-want +got):\n%s", d)
	}
}

func TestParseNotObject(t *testing.T) {
	for _, raw := range []string{``, `null`, `"s"`, `{`, `  `} {
		r := Parse(json.RawMessage(raw))
		if d := cmp.Diff([]string{"the arguments must be a JSON object"}, r.Problems()); d != "" {
			t.Errorf("Parse(%q): %s", raw, d)
		}
	}
	r := Parse(json.RawMessage(" \n{} "))
	if r.Err() != nil {
		t.Errorf("an object with spaces around it: %v", r.Err())
	}
}
