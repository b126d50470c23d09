package jsonrpc_test

import (
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// peekID returns the id of the error that answers an oversize message of
// which prefix was kept.
func peekID(prefix []byte) jsonrpc.ID { return jsonrpc.OversizeError(prefix, 4096).ID }

// TestOversizeErrorID checks the id an oversize line's error carries: the
// top-level id, when the kept prefix holds it in full.
func TestOversizeErrorID(t *testing.T) {
	full := `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"x":"aaaa`
	if got := peekID([]byte(full)).Raw(); got != "42" {
		t.Errorf("OversizeError(%s) = %q, want 42", full, got)
	}
	tests := []struct {
		prefix string
		want   string
	}{
		{`{"id":"abc","method":"x","params":{"deep":[[[`, `"abc"`},
		{` {"id" : 7 ,`, `7`},
		{`{"jsonrpc":"2.0","id":9007199254740993,"params":"`, `9007199254740993`},
		{`{"params":{"id":1,"x":"aaaa`, ``},                   // id nested in params
		{`{"jsonrpc":"2.0","method":"m","params":{"a":"`, ``}, // id after the cut
		{`{"jsonrpc":"2.0","id":4242`, ``},                    // the cut may be inside the number
		{`{"jsonrpc":"2.0","id":-`, ``},
		{`{"jsonrpc":"2.0","id":"ab`, ``},
		{`{"jsonrpc":"2.0","id"`, ``},
		{`{"jsonrpc":"2.0","id":1.5,"x":"`, ``},
		{`{"jsonrpc":"2.0","id":null,"x":"`, ``},
		{`{"\u0069d":5,"x":"`, `5`},
		{`[{"id":1,"method":"m"}`, ``},
		{`"id":1,`, ``},
		{``, ``},
	}
	for _, tt := range tests {
		if got := peekID([]byte(tt.prefix)).Raw(); got != tt.want {
			t.Errorf("OversizeError(%s) = %q, want %q", tt.prefix, got, tt.want)
		}
	}
	// Every prefix that ends before the id token is complete gives no id,
	// every one after gives 42.
	line := []byte(`{"jsonrpc":"2.0","id":4242,"method":"tools/call","params":{"x":"aaaa"}}`)
	complete := len(`{"jsonrpc":"2.0","id":4242`)
	for i := 0; i <= len(line); i++ {
		got := peekID(line[:i]).Raw()
		want := ""
		if i > complete {
			want = "4242"
		}
		if got != want {
			t.Errorf("OversizeError(%s) = %q, want %q", line[:i], got, want)
		}
	}
}

func TestOversizeError(t *testing.T) {
	for _, tt := range []struct {
		prefix string
		limit  int
		want   string
	}{
		{`{"jsonrpc":"2.0","id":"a","method":"m","params":{"x":"aaaa`, 10, `{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"invalid request: message exceeds the 10-byte limit"}}`},
		{`[{"jsonrpc":"2.0","id":1`, 4194304, `{"jsonrpc":"2.0","error":{"code":-32600,"message":"invalid request: message exceeds the 4194304-byte limit"}}`},
		{``, 1, `{"jsonrpc":"2.0","error":{"code":-32600,"message":"invalid request: message exceeds the 1-byte limit"}}`},
	} {
		de := jsonrpc.OversizeError([]byte(tt.prefix), tt.limit)
		if de.Err.Code != jsonrpc.CodeInvalidRequest {
			t.Errorf("OversizeError(%s) code = %d, want -32600", tt.prefix, de.Err.Code)
		}
		if got := mustMarshal(t, de.Response()); got != tt.want {
			t.Errorf("OversizeError(%s, %d) answers\n %s\nwant\n %s", tt.prefix, tt.limit, got, tt.want)
		}
	}
}
