package jsonrpc_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func TestMarshal(t *testing.T) {
	tests := []struct {
		name string
		msg  jsonrpc.Message
		want string
	}{
		{"request", &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(`{"name":"echo"}`)},
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`},
		{"request without params", &jsonrpc.Request{ID: jsonrpc.StringID("a"), Method: "ping"},
			`{"jsonrpc":"2.0","id":"a","method":"ping"}`},
		{"notification", &jsonrpc.Notification{Method: "notifications/progress", Params: json.RawMessage(`{"progress":1}`)},
			`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`},
		{"notification without params", &jsonrpc.Notification{Method: "n"},
			`{"jsonrpc":"2.0","method":"n"}`},
		{"method escaped", &jsonrpc.Notification{Method: "a\"b\n"},
			`{"jsonrpc":"2.0","method":"a\"b\n"}`},
		{"result", &jsonrpc.Response{ID: jsonrpc.Int64ID(2), Result: json.RawMessage(`{"content":[]}`)},
			`{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`},
		{"empty result is {}", &jsonrpc.Response{ID: jsonrpc.Int64ID(2)},
			`{"jsonrpc":"2.0","id":2,"result":{}}`},
		{"error", &jsonrpc.Response{ID: jsonrpc.StringID("x"), Error: jsonrpc.NewError(-32601, "method %q not found", "nope")},
			`{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"method \"nope\" not found"}}`},
		{"error without id omits id", &jsonrpc.Response{Error: jsonrpc.ErrParse},
			`{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"}}`},
		{"batch response", jsonrpc.BatchResponse{
			{ID: jsonrpc.Int64ID(1), Result: json.RawMessage(`[]`)},
			{Error: jsonrpc.ErrInvalidRequest},
		}, `[{"jsonrpc":"2.0","id":1,"result":[]},{"jsonrpc":"2.0","error":{"code":-32600,"message":"invalid request"}}]`},
		{"empty batch response", jsonrpc.BatchResponse{}, `[]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustMarshal(t, tt.msg)
			if got != tt.want {
				t.Errorf("Marshal =\n %s\nwant\n %s", got, tt.want)
			}
			if !json.Valid([]byte(got)) || strings.ContainsAny(got, "\n\r") {
				t.Errorf("Marshal gave %q: not one line of valid JSON", got)
			}
			prefix := []byte("prefix:")
			b, err := jsonrpc.AppendMessage(prefix, tt.msg)
			if err != nil || string(b) != "prefix:"+tt.want {
				t.Errorf("AppendMessage = %q, %v", b, err)
			}
		})
	}
}

func TestMarshalRefusesWhatItCannotEncode(t *testing.T) {
	for _, m := range []jsonrpc.Message{
		jsonrpc.Batch{},
		nil,
		&jsonrpc.Request{Method: "no id"}, // would be `"id":,`
	} {
		if b, err := jsonrpc.Marshal(m); err == nil {
			t.Errorf("Marshal(%#v) = %s, want an error", m, b)
		}
	}
}

func TestDecodeMarshalRoundTrip(t *testing.T) {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
		`{"jsonrpc":"2.0","id":"abc","method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":-1,"result":{"content":[{"type":"text","text":"hi"}]}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad","data":{"field":"x"}}}`,
	} {
		if got := mustMarshal(t, mustDecode(t, line)); got != line {
			t.Errorf("round trip of\n %s\ngave\n %s", line, got)
		}
	}
}

func TestAppendString(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", `""`},
		{"plain", `"plain"`},
		{`q"b\`, `"q\"b\\"`},
		{"\n\r\t", `"\n\r\t"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f" + `"`},
		{"\b\f", `"\u0008\u000c"`},
		{"héllo ✓ 😀", `"héllo ✓ 😀"`},
		{"a\xffb", `"a\ufffdb"`},
		{"\xc3", `"\ufffd"`},
		{"\xed\xa0\x80", `"\ufffd\ufffd\ufffd"`}, // surrogate half, byte by byte
		{"\xf0\x9f\x98", `"\ufffd\ufffd\ufffd"`}, // truncated 4-byte sequence
		{"</script>&", `"</script>&"`},
	}
	for _, tt := range tests {
		got := string(jsonrpc.AppendString([]byte("x"), tt.in))
		if got != "x"+tt.want {
			t.Errorf("AppendString(%q) = %s, want %s", tt.in, got[1:], tt.want)
		}
		checkJSONString(t, tt.in, got[1:])
	}
	// Every byte value, alone and after a multi-byte rune.
	for c := 0; c < 256; c++ {
		for _, s := range []string{string([]byte{byte(c)}), "é" + string([]byte{byte(c)}) + "x"} {
			checkJSONString(t, s, string(jsonrpc.AppendString(nil, s)))
		}
	}
}

// checkJSONString checks that enc, the encoding of in, is valid UTF-8 and
// valid JSON, and decodes (with encoding/json) to in with invalid bytes
// replaced by U+FFFD.
func checkJSONString(t *testing.T, in, enc string) {
	t.Helper()
	if !utf8.ValidString(enc) {
		t.Errorf("AppendString(%q) = %q is not valid UTF-8", in, enc)
	}
	if strings.ContainsAny(enc, "\n\r") {
		t.Errorf("AppendString(%q) = %q holds a raw line break", in, enc)
	}
	var back string
	if err := json.Unmarshal([]byte(enc), &back); err != nil {
		t.Errorf("AppendString(%q) = %q is not a JSON string: %v", in, enc, err)
		return
	}
	if back != replaceEachByte(in) {
		t.Errorf("AppendString(%q) decodes to %q", in, back)
	}
}

// replaceEachByte replaces every invalid byte with U+FFFD.
func replaceEachByte(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r) // range yields U+FFFD for each invalid byte
	}
	return b.String()
}

func TestNewResult(t *testing.T) {
	r, err := jsonrpc.NewResult(jsonrpc.Int64ID(3), map[string]any{"content": []any{}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mustMarshal(t, r), `{"jsonrpc":"2.0","id":3,"result":{"content":[]}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if _, err := jsonrpc.NewResult(jsonrpc.Int64ID(3), make(chan int)); err == nil {
		t.Error("NewResult(chan) did not fail")
	}
}
