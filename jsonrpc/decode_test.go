package jsonrpc_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func TestDecodeValidMessages(t *testing.T) {
	tests := []struct {
		name string
		line string
		want jsonrpc.Message
	}{
		{"request", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`,
			&jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(`{"name":"echo"}`)}},
		{"request without params", `{"jsonrpc":"2.0","id":"a","method":"ping"}`,
			&jsonrpc.Request{ID: jsonrpc.StringID("a"), Method: "ping"}},
		{"members in any order, spaces", " { \"method\" : \"ping\" , \"id\" : 2 , \"jsonrpc\" : \"2.0\" } \r\n",
			&jsonrpc.Request{ID: jsonrpc.Int64ID(2), Method: "ping"}},
		{"array params", `{"jsonrpc":"2.0","id":1,"method":"m","params":[1,2]}`,
			&jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "m", Params: json.RawMessage(`[1,2]`)}},
		{"null params are absent", `{"jsonrpc":"2.0","id":1,"method":"m","params":null}`,
			&jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "m"}},
		{"escaped method", `{"jsonrpc":"2.0","id":1,"method":"tools\/c\u0061ll"}`,
			&jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call"}},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			&jsonrpc.Notification{Method: "notifications/initialized"}},
		{"notification with params", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`,
			&jsonrpc.Notification{Method: "notifications/cancelled", Params: json.RawMessage(`{"requestId":3}`)}},
		{"result response", `{"jsonrpc":"2.0","id":7,"result":{"ok":true}}`,
			&jsonrpc.Response{ID: jsonrpc.Int64ID(7), Result: json.RawMessage(`{"ok":true}`)}},
		{"error response", `{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no","data":[1]}}`,
			&jsonrpc.Response{ID: jsonrpc.Int64ID(7), Error: &jsonrpc.Error{Code: -32601, Message: "no", Data: json.RawMessage(`[1]`)}}},
		{"error response without id", `{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"}}`,
			&jsonrpc.Response{Error: &jsonrpc.Error{Code: -32700, Message: "parse error"}}},
		{"unknown members ignored", `{"jsonrpc":"2.0","id":1,"method":"m","extra":{"x":1}}`,
			&jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "m"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustDecode(t, tt.line)
			if diff := cmp.Diff(tt.want, got, msgOpts); diff != "" {
				t.Errorf("Decode(%s) mismatch (-want +got):\n%s", tt.line, diff)
			}
		})
	}
}

func TestDecodeRejects(t *testing.T) {
	tests := []struct {
		name   string
		line   string
		code   int64
		wantID string // raw id the error must carry, "" for none
	}{
		// Not JSON.
		{"garbage", `hello`, jsonrpc.CodeParseError, ""},
		{"empty", ``, jsonrpc.CodeParseError, ""},
		{"truncated", `{"jsonrpc":"2.0","id":1,"method":"m"`, jsonrpc.CodeParseError, ""},
		{"trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"m"}x`, jsonrpc.CodeParseError, ""},
		{"two values", `{"jsonrpc":"2.0","id":1,"method":"m"} {}`, jsonrpc.CodeParseError, ""},
		{"single quotes", `{'jsonrpc':'2.0'}`, jsonrpc.CodeParseError, ""},
		{"trailing comma", `{"jsonrpc":"2.0","id":1,"method":"m",}`, jsonrpc.CodeParseError, ""},
		{"leading zero", `{"jsonrpc":"2.0","id":01,"method":"m"}`, jsonrpc.CodeParseError, ""},
		{"bad escape", `{"jsonrpc":"2.0","id":1,"method":"\x"}`, jsonrpc.CodeParseError, ""},
		{"short unicode escape", `{"jsonrpc":"2.0","id":1,"method":"\u12"}`, jsonrpc.CodeParseError, ""},
		{"raw control char in string", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\tb\"}", jsonrpc.CodeParseError, ""},
		{"invalid utf-8 in string", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\xffb\"}", jsonrpc.CodeParseError, ""},
		{"invalid utf-8 in key", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"\xc3\":1}", jsonrpc.CodeParseError, ""},
		{"utf-8 surrogate bytes", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xed\xa0\x80\"}", jsonrpc.CodeParseError, ""},
		{"overlong utf-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xc0\xaf\"}", jsonrpc.CodeParseError, ""},
		{"BOM", "\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}", jsonrpc.CodeParseError, ""},

		// JSON, but not a message.
		{"number", `42`, jsonrpc.CodeInvalidRequest, ""},
		{"string", `"ping"`, jsonrpc.CodeInvalidRequest, ""},
		{"null", `null`, jsonrpc.CodeInvalidRequest, ""},
		{"true", `true`, jsonrpc.CodeInvalidRequest, ""},
		{"empty object", `{}`, jsonrpc.CodeInvalidRequest, ""},
		{"only version", `{"jsonrpc":"2.0"}`, jsonrpc.CodeInvalidRequest, ""},
		{"only id", `{"jsonrpc":"2.0","id":3}`, jsonrpc.CodeInvalidRequest, "3"},
		{"missing version", `{"id":1,"method":"m"}`, jsonrpc.CodeInvalidRequest, "1"},
		{"version 1.0", `{"jsonrpc":"1.0","id":1,"method":"m"}`, jsonrpc.CodeInvalidRequest, "1"},
		{"version as number", `{"jsonrpc":2.0,"id":1,"method":"m"}`, jsonrpc.CodeInvalidRequest, "1"},
		{"version with space", `{"jsonrpc":"2.0 ","id":1,"method":"m"}`, jsonrpc.CodeInvalidRequest, "1"},
		{"version escaped", `{"jsonrpc":"2\u002e0","id":"s","method":"m"}`, jsonrpc.CodeInvalidRequest, `"s"`},
		{"version null", `{"jsonrpc":null,"id":1,"method":"m"}`, jsonrpc.CodeInvalidRequest, "1"},
		{"method number", `{"jsonrpc":"2.0","id":1,"method":1}`, jsonrpc.CodeInvalidRequest, "1"},
		{"method null", `{"jsonrpc":"2.0","id":1,"method":null}`, jsonrpc.CodeInvalidRequest, "1"},
		{"method object", `{"jsonrpc":"2.0","id":"x","method":{}}`, jsonrpc.CodeInvalidRequest, `"x"`},
		{"params number", `{"jsonrpc":"2.0","id":1,"method":"m","params":1}`, jsonrpc.CodeInvalidRequest, "1"},
		{"params string", `{"jsonrpc":"2.0","id":1,"method":"m","params":"x"}`, jsonrpc.CodeInvalidRequest, "1"},
		{"params bool", `{"jsonrpc":"2.0","id":1,"method":"m","params":true}`, jsonrpc.CodeInvalidRequest, "1"},
		{"notification params scalar", `{"jsonrpc":"2.0","method":"m","params":5}`, jsonrpc.CodeInvalidRequest, ""},
		{"request with result", `{"jsonrpc":"2.0","id":1,"method":"m","result":{}}`, jsonrpc.CodeInvalidRequest, "1"},
		{"request with error", `{"jsonrpc":"2.0","id":1,"method":"m","error":{"code":1,"message":""}}`, jsonrpc.CodeInvalidRequest, "1"},
		{"result and error", `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":""}}`, jsonrpc.CodeInvalidRequest, "1"},
		{"result without id", `{"jsonrpc":"2.0","result":{}}`, jsonrpc.CodeInvalidRequest, ""},
		{"error not an object", `{"jsonrpc":"2.0","id":1,"error":"bad"}`, jsonrpc.CodeInvalidRequest, "1"},
		{"error null", `{"jsonrpc":"2.0","id":1,"error":null}`, jsonrpc.CodeInvalidRequest, "1"},
		{"error code fractional", `{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}`, jsonrpc.CodeInvalidRequest, "1"},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"m"}`, jsonrpc.CodeInvalidRequest, ""},
		{"bad id and bad version", `{"jsonrpc":"1.0","id":1.5,"method":"m"}`, jsonrpc.CodeInvalidRequest, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			de := decodeErr(t, tt.line)
			if de.Err.Code != tt.code {
				t.Errorf("code = %d (%s), want %d", de.Err.Code, de.Err.Message, tt.code)
			}
			if got := de.ID.Raw(); got != tt.wantID {
				t.Errorf("id = %q, want %q", got, tt.wantID)
			}
			resp := de.Response()
			if resp.Error != de.Err || resp.ID != de.ID {
				t.Errorf("Response() = %#v, does not carry the error and id", resp)
			}
			checkErrorResponseLine(t, mustMarshal(t, resp), tt.code, tt.wantID)
		})
	}
}

// checkErrorResponseLine checks an encoded error response: valid JSON, the
// code, and "id" present exactly when wantID is set.
func checkErrorResponseLine(t *testing.T, line string, code int64, wantID string) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("error response %s is not JSON: %v", line, err)
	}
	id, has := m["id"]
	switch {
	case wantID == "" && has:
		t.Errorf("error response %s has an id, want none", line)
	case wantID != "" && string(id) != wantID:
		t.Errorf("error response %s has id %s, want %s", line, id, wantID)
	}
	var e struct{ Code int64 }
	if err := json.Unmarshal(m["error"], &e); err != nil || e.Code != code {
		t.Errorf("error response %s: code %d (%v), want %d", line, e.Code, err, code)
	}
}

func TestDecodeEscapedEnvelopeKeys(t *testing.T) {
	// JSON says "\u0069d" and "id" are the same key; a decoder that
	// ignored the escaped spelling would turn a request into a
	// notification, or drop its params, and no other decoder would agree.
	got := mustDecode(t, `{"jsonrpc":"2.0","\u0069d":5,"method":"m","p\u0061rams":{"a":1}}`)
	want := &jsonrpc.Request{ID: jsonrpc.Int64ID(5), Method: "m", Params: json.RawMessage(`{"a":1}`)}
	if diff := cmp.Diff(want, got, msgOpts); diff != "" {
		t.Errorf("escaped envelope keys (-want +got):\n%s", diff)
	}
	got = mustDecode(t, `{"jsonr\u0070c":"2.0","id":1,"r\u0065sult":[]}`)
	if diff := cmp.Diff(&jsonrpc.Response{ID: jsonrpc.Int64ID(1), Result: json.RawMessage(`[]`)}, got, msgOpts); diff != "" {
		t.Errorf("escaped response keys (-want +got):\n%s", diff)
	}
}

func TestDecodeNestingLimit(t *testing.T) {
	// The envelope is level 1 and the params object level 2; inner adds
	// depth-2 more levels.
	wrap := func(inner string) string {
		return `{"jsonrpc":"2.0","id":9,"method":"m","params":{"a":` + inner + `}}`
	}
	arrays := func(depth int) string {
		return wrap(strings.Repeat("[", depth-2) + strings.Repeat("]", depth-2))
	}
	objects := func(depth int) string {
		return wrap(strings.Repeat(`{"k":`, depth-2) + "1" + strings.Repeat("}", depth-2))
	}
	for name, build := range map[string]func(int) string{"arrays": arrays, "objects": objects} {
		if _, err := jsonrpc.Decode([]byte(build(1000))); err != nil {
			t.Errorf("%s nested 1000 deep: %v", name, err)
		}
		// The id comes before the nesting, so the error carries it.
		de := decodeErr(t, build(1001))
		if de.Err.Code != jsonrpc.CodeInvalidRequest || de.ID.Raw() != "9" {
			t.Errorf("%s nested 1001 deep: code %d id %s, want -32600 with id 9", name, de.Err.Code, de.ID)
		}
	}
	// Far deeper input must not exhaust the stack.
	for _, huge := range []string{
		strings.Repeat("[", 1<<20),
		strings.Repeat(`{"a":`, 1<<18),
		strings.Repeat("[", 5000) + strings.Repeat("]", 5000),
		"[" + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "]",
	} {
		de := decodeErr(t, huge)
		if de.Err.Code != jsonrpc.CodeInvalidRequest {
			t.Errorf("deep input of %d bytes: code %d, want -32600", len(huge), de.Err.Code)
		}
	}
}

func TestDecodeBatch(t *testing.T) {
	line := `[{"jsonrpc":"2.0","id":1,"method":"a"},` +
		`{"jsonrpc":"2.0","method":"n"},` +
		`{"jsonrpc":"1.0","id":2,"method":"b"},` +
		`5,` +
		`{"jsonrpc":"2.0","id":3,"method":"c","Method":"d"},` +
		`{"jsonrpc":"2.0","id":4,"result":"ok"}]`
	b, ok := mustDecode(t, line).(jsonrpc.Batch)
	if !ok {
		t.Fatalf("Decode(batch) is not a jsonrpc.Batch")
	}
	want := []struct {
		msg  jsonrpc.Message
		code int64
		id   string
	}{
		{msg: &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "a"}},
		{msg: &jsonrpc.Notification{Method: "n"}},
		{code: jsonrpc.CodeInvalidRequest, id: "2"},
		{code: jsonrpc.CodeInvalidRequest},
		{code: jsonrpc.CodeInvalidRequest, id: "3"},
		{msg: &jsonrpc.Response{ID: jsonrpc.Int64ID(4), Result: json.RawMessage(`"ok"`)}},
	}
	if len(b) != len(want) {
		t.Fatalf("batch has %d items, want %d", len(b), len(want))
	}
	for i, w := range want {
		item := b[i]
		if w.msg != nil {
			if item.Err != nil {
				t.Errorf("item %d: unexpected error %v", i, item.Err)
			}
			if diff := cmp.Diff(w.msg, item.Msg, msgOpts); diff != "" {
				t.Errorf("item %d (-want +got):\n%s", i, diff)
			}
			continue
		}
		if item.Msg != nil || item.Err == nil {
			t.Errorf("item %d: got msg %#v err %v, want an error", i, item.Msg, item.Err)
			continue
		}
		if item.Err.Err.Code != w.code || item.Err.ID.Raw() != w.id {
			t.Errorf("item %d: error %d id %q, want %d id %q", i, item.Err.Err.Code, item.Err.ID.Raw(), w.code, w.id)
		}
	}
}

func TestDecodeBatchRejects(t *testing.T) {
	tests := []struct {
		line string
		code int64
	}{
		{`[]`, jsonrpc.CodeInvalidRequest},
		{` [ ] `, jsonrpc.CodeInvalidRequest},
		{`[{"jsonrpc":"2.0","id":1,"method":"a"}`, jsonrpc.CodeParseError},
		{`[{"jsonrpc":"2.0","id":1,"method":"a"},]`, jsonrpc.CodeParseError},
	}
	for _, tt := range tests {
		de := decodeErr(t, tt.line)
		if de.Err.Code != tt.code || de.ID.IsValid() {
			t.Errorf("Decode(%s): code %d id %s, want %d without id", tt.line, de.Err.Code, de.ID, tt.code)
		}
	}
	// Elements that are not objects are invalid items, not a failed batch.
	b, ok := mustDecode(t, `[1,"x",[],null]`).(jsonrpc.Batch)
	if !ok || len(b) != 4 {
		t.Fatalf("Decode([1,\"x\",[],null]) = %#v", b)
	}
	for i, item := range b {
		if item.Err == nil || item.Err.Err.Code != jsonrpc.CodeInvalidRequest {
			t.Errorf("item %d: %#v, want -32600", i, item)
		}
	}
}

func TestDecodeDoesNotPanicOnPrefixes(t *testing.T) {
	line := `{"jsonrpc":"2.0","id":"x\u00e9","method":"tools/call","params":{"name":"echo","arguments":{"a":[1,2.5e-3,true,false,null,{"b":"\ud83d\ude00"}]}}}`
	for i := 0; i <= len(line); i++ {
		msg, err := jsonrpc.Decode([]byte(line[:i]))
		if i == len(line) {
			if err != nil {
				t.Fatalf("full line: %v", err)
			}
			continue
		}
		if err == nil {
			t.Fatalf("prefix %q decoded to %#v", line[:i], msg)
		}
	}
}
