package tool_test

import (
	"context"
	"math/big"
	"net/netip"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/tool"
)

type decodeInner struct {
	N int8 `json:"n"`
}

type decodeArgs struct {
	A   int64              `json:"a"`
	I   int                `json:"i"`
	I8  int8               `json:"i8"`
	U   uint               `json:"u"`
	F32 float32            `json:"f32"`
	F64 float64            `json:"f64"`
	S   string             `json:"s"`
	Q   int                `json:"q,string"`
	By  []byte             `json:"by"`
	Tm  time.Time          `json:"tm"`
	In  decodeInner        `json:"in"`
	L   []decodeInner      `json:"l"`
	M   map[string]int8    `json:"m"`
	P   *uint8             `json:"p"`
	Arr [2]int16           `json:"arr"`
	Any any                `json:"any"`
	Raw json.RawMessage    `json:"raw"`
	Sub map[string][]int32 `json:"sub"`
}

// Arguments a loose input schema lets through but In cannot hold are
// refused in JSON terms: a pointer, the JSON type or range expected, the
// value as sent (clipped), and never a Go type.
func TestDecodeErrorsInJSONTerms(t *testing.T) {
	loose := tool.New("d", "", noop[decodeArgs, *tool.Result](), tool.WithInputSchema(json.RawMessage(`{"type":"object"}`)))
	huge := strings.Repeat("k", 10<<20)
	tests := []struct{ args, want string }{
		{`{"a":1e300}`, "- /a: 1e300 should be at most 9223372036854775807 (maximum)"},
		{`{"a":-1e300}`, "- /a: -1e300 should be at least -9223372036854775808 (minimum)"},
		{`{"a":9223372036854775808}`, "- /a: 9223372036854775808 should be at most 9223372036854775807 (maximum)"},
		{`{"i":-9223372036854775809}`, "- /i: -9223372036854775809 should be at least -9223372036854775808 (minimum)"},
		{`{"i8":300}`, "- /i8: 300 should be at most 127 (maximum)"},
		{`{"i8":-129}`, "- /i8: -129 should be at least -128 (minimum)"},
		{`{"u":-1}`, "- /u: -1 should be at least 0 (minimum)"},
		{`{"u":18446744073709551616}`, "- /u: 18446744073709551616 should be at most 18446744073709551615 (maximum)"},
		{`{"f32":3.5e38}`, "- /f32: 3.5e38 should be at most 3.4028234663852886e+38 (maximum)"},
		{`{"f32":-3.5e38}`, "- /f32: -3.5e38 should be at least -3.4028234663852886e+38 (minimum)"},
		{`{"f64":1e400}`, "- /f64: 1e400 should be at most 1.7976931348623157e+308 (maximum)"},
		{`{"a":"12"}`, `- /a: "12" should be an integer, not a string (type)`},
		{`{"a":1.5}`, "- /a: 1.5 should be an integer, not a number with a fractional part (type)"},
		{`{"a":1e2}`, "- /a: 1e2 should be written as an integer, without a fraction or an exponent (type)"},
		{`{"a":1.0}`, "- /a: 1.0 should be written as an integer, without a fraction or an exponent (type)"},
		{`{"a":true}`, "- /a: true should be an integer, not a boolean (type)"},
		{`{"a":{"x":1}}`, `- /a: {"x":1} should be an integer, not an object (type)`},
		{`{"a":[1]}`, "- /a: [1] should be an integer, not an array (type)"},
		{`{"s":false}`, "- /s: false should be a string, not a boolean (type)"},
		{`{"q":"abc"}`, `- /q: "abc" should be a string holding an integer (type)`},
		{`{"q":"99999999999999999999"}`, "- /q: 99999999999999999999 should be at most 9223372036854775807 (maximum)"},
		{`{"q":7}`, "- /q: 7 should be a string, not an integer (type)"},
		{`{"by":"!!"}`, `- /by: "!!" should be valid base64 (contentEncoding)`},
		{`{"by":5}`, "- /by: 5 should be a string, not an integer (type)"},
		{`{"tm":5}`, "- /tm: 5 should be a string, not an integer (type)"},
		{`{"tm":"nope"}`, `- /tm: "nope" should be a valid date-time as RFC 3339 writes it, such as 2025-03-14T09:30:00Z (format)`},
		{`{"in":{"n":1000}}`, "- /in/n: 1000 should be at most 127 (maximum)"},
		{`{"l":[{"n":1},{"n":999}]}`, "- /l/1/n: 999 should be at most 127 (maximum)"},
		{`{"l":{"n":1}}`, `- /l: {"n":1} should be an array, not an object (type)`},
		{`{"m":{"a.b":999}}`, "- /m/a.b: 999 should be at most 127 (maximum)"},
		{`{"m":{"x/y~":"s"}}`, `- /m/x~1y~0: "s" should be an integer, not a string (type)`},
		{` { "m" : { "` + huge + `" : 999 } } `, "- /m/" + strings.Repeat("k", 64) + "… (10485760 bytes): 999 should be at most 127 (maximum)"},
		{`{"p":256}`, "- /p: 256 should be at most 255 (maximum)"},
		// A duplicate name defeats the offset: the decoder's path tells.
		{`{"i8":1,"i8":300}`, "- /i8: 300 should be at most 127 (maximum)"},
		{`{"l":[{"n":1},{"n":1,"n":999}]}`, "- /l/1/n: 999 should be at most 127 (maximum)"},
		{`{"arr":[1,40000]}`, "- /arr/1: 40000 should be at most 32767 (maximum)"},
		{`{"sub":{"k":[1,2,2147483648]}}`, "- /sub/k/2: 2147483648 should be at most 2147483647 (maximum)"},
		{`{"a":1` + strings.Repeat("0", 100) + `}`, "- /a: 1" + strings.Repeat("0", 63) + "… (101 bytes) should be at most 9223372036854775807 (maximum)"},
	}
	for _, tt := range tests {
		res, err := call(t, loose, tt.args)
		if err != nil {
			t.Fatal(err)
		}
		want := "invalid arguments for tool d:\n" + tt.want
		if !res.IsError || text(res) != want {
			t.Errorf("args %.60s:\n got %q (isError %v)\nwant %q", tt.args, clipText(text(res)), res.IsError, want)
		}
		for _, leak := range []string{"Go ", "int64", "int8", "float", "uint", "decodeArgs", "tool_test", "json:", "unmarshal", "struct"} {
			if strings.Contains(text(res), leak) {
				t.Errorf("args %.60s: the text names %q: %q", tt.args, leak, clipText(text(res)))
			}
		}
	}
}

func clipText(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// Inferred schemas bound numeric fields to their Go type's range: the
// validator refuses an overflow before decoding, in the same words.
func TestInferredRangesRefuseOverflow(t *testing.T) {
	tl := tool.New("d", "", noop[decodeArgs, *tool.Result](), tool.AllowAdditionalProperties())
	for _, tt := range []struct{ args, want string }{
		{`{"i8":300}`, "- /i8: 300 should be at most 127 (maximum)"},
		{`{"u":-1}`, "- /u: -1 should be at least 0 (minimum)"},
		{`{"a":9223372036854775808}`, "- /a: 9223372036854775808 should be at most 9223372036854775807 (maximum)"},
		{`{"f32":3.5e38}`, "- /f32: 3.5e38 should be at most 3.4028234663852886e+38 (maximum)"},
		{`{"in":{"n":-200}}`, "- /in/n: -200 should be at least -128 (minimum)"},
	} {
		// Every field is required: give the others valid values.
		var args map[string]json.RawMessage
		if err := json.Unmarshal([]byte(`{"a":0,"i":0,"i8":0,"u":0,"f32":0,"f64":0,"s":"","q":"0","by":"","tm":"2025-03-14T09:30:00Z",`+
			`"in":{"n":0},"l":[],"m":{},"arr":[0,0],"any":null,"raw":null,"sub":{}}`), &args); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(tt.args), &args); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(args)
		res, err := call(t, tl, string(b))
		if err != nil {
			t.Fatal(err)
		}
		if want := "invalid arguments for tool d:\n" + tt.want; !res.IsError || text(res) != want {
			t.Errorf("args %s:\n got %q\nwant %q", tt.args, text(res), want)
		}
	}
}

// Arguments that decode reach the handler.
func TestDecodeStillWorks(t *testing.T) {
	var got decodeArgs
	tl := tool.New("d", "", func(_ context.Context, in decodeArgs) (*tool.Result, error) {
		got = in
		return tool.TextResult("ok"), nil
	}, tool.WithInputSchema(json.RawMessage(`{"type":"object"}`)))
	res, err := call(t, tl, `{"a":9223372036854775807,"i8":-128,"q":"12","f32":3.4028234663852886e38,"m":{"a.b":1}}`)
	if err != nil || res.IsError || got.A != 1<<63-1 || got.I8 != -128 || got.Q != 12 || got.M["a.b"] != 1 {
		t.Errorf("got %+v, %q, %v", got, text(res), err)
	}
}

type methodArgs struct {
	Addr   netip.Addr          `json:"addr"`
	Prefix netip.Prefix        `json:"prefix"`
	Big    *big.Int            `json:"big"`
	When   time.Time           `json:"when"`
	Items  []methodItem        `json:"items"`
	ByAddr map[netip.Addr]int  `json:"byAddr"`
	ByInt  map[int8]string     `json:"byInt"`
	Num    json.Number         `json:"num"`
	Any    any                 `json:"any"`
	Q      int                 `json:"q,string"`
	Nested map[string][]string `json:"nested"`
}

type methodItem struct {
	At time.Time `json:"at"`
}

// A value refused by its type's own decoding method (UnmarshalJSON,
// UnmarshalText), which the decoder reports without a place, is located
// and described in JSON terms; the method's text is kept only when it
// does not speak of Go.
func TestDecodeMethodErrorsLocated(t *testing.T) {
	loose := tool.New("d", "", noop[methodArgs, *tool.Result](), tool.WithInputSchema(json.RawMessage(`{"type":"object"}`)))
	tests := []struct{ args, want string }{
		{`{"addr":"nope"}`, `- /addr: "nope" cannot be read: unable to parse IP (format)`},
		{`{"addr":"::1","prefix":"1.2.3.4/99"}`, `- /prefix: "1.2.3.4/99" cannot be read: prefix length out of range (format)`},
		{`{"big":"x"}`, `- /big: "x" cannot be read (format)`},
		{`{"big":1.5}`, `- /big: 1.5 cannot be read (decode)`},
		{`{"when":"2025-13-01T00:00:00Z"}`, `- /when: "2025-13-01T00:00:00Z" should be a valid date-time as RFC 3339 writes it, such as 2025-03-14T09:30:00Z (format)`},
		{`{"items":[{"at":"2025-03-14T09:30:00Z"},{"at":"soon"}]}`, `- /items/1/at: "soon" should be a valid date-time as RFC 3339 writes it, such as 2025-03-14T09:30:00Z (format)`},
		{`{"byAddr":{"::1":1,"x":2}}`, `- /byAddr/x: the property name "x" cannot be read: unable to parse IP (propertyNames)`},
		{`{"byInt":{"1":"a","x":"b"}}`, `- /byInt/x: the property name "x" should be an integer from -128 to 127 (propertyNames)`},
		{`{"byInt":{"300":"b"}}`, `- /byInt/300: the property name "300" should be an integer from -128 to 127 (propertyNames)`},
		{`{"num":"abc"}`, `- /num: "abc" should be a string holding a number (type)`},
		{`{"q":"7","any":{"deep":[1]},"nested":{"k":["a"]},"addr":"bad"}`, `- /addr: "bad" cannot be read: unable to parse IP (format)`},
	}
	for _, tt := range tests {
		res, err := call(t, loose, tt.args)
		if err != nil {
			t.Fatal(err)
		}
		want := "invalid arguments for tool d:\n" + tt.want
		if !res.IsError || text(res) != want {
			t.Errorf("args %s:\n got %q\nwant %q", tt.args, text(res), want)
		}
		for _, leak := range []string{"Go ", "Parse", "netip", "big.", "*", "unmarshal", "Unmarshal", "time."} {
			if strings.Contains(text(res), leak) {
				t.Errorf("args %s: the text names %q: %q", tt.args, leak, text(res))
			}
		}
	}
}
