package jsonrpc_test

import (
	"encoding/json"
	"strings"
	"testing"

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

// TestAppendResponseHead checks that a head, a result and "}" make the
// line AppendMessage writes for the response, with and without an id.
func TestAppendResponseHead(t *testing.T) {
	result := json.RawMessage(`{"content":[{"type":"text","text":"hi"}]}`)
	for _, id := range []jsonrpc.ID{jsonrpc.Int64ID(1), jsonrpc.StringID("a\"b"), {}, jsonrpc.Int64ID(-9007199254740993)} {
		line := append(jsonrpc.AppendResponseHead([]byte("x"), id), result...)
		line = append(line, '}')
		want := "x" + mustMarshal(t, &jsonrpc.Response{ID: id, Result: result})
		if string(line) != want {
			t.Errorf("id %s: head+result+} = %s, want %s", id, line, want)
		}
	}
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
