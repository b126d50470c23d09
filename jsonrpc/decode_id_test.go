package jsonrpc_test

import (
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// deep opens n arrays and never closes them.
func deep(n int) string { return strings.Repeat("[", n) }

// TestDecodeIDRules checks which id an error carries when the message is
// refused: the top-level id when it was read in full before the failure,
// and none when it is ambiguous (given twice) or was not reached.
func TestDecodeIDRules(t *testing.T) {
	tests := []struct {
		name   string
		line   string
		wantID string // raw id the error must carry, "" for none
	}{
		// Too deep: the id is known when it came before the nesting.
		{"too deep, id first", `{"jsonrpc":"2.0","id":7,"method":"x","params":` + deep(2000), "7"},
		{"too deep, string id first", `{"id":"a\"b","jsonrpc":"2.0","method":"x","params":` + deep(2000), `"a\"b"`},
		{"too deep, negative id first", `{"id":-12,"params":{"a":` + deep(2000), "-12"},
		{"too deep, id then spaces", `{"id":7 ,"params":` + deep(2000), "7"},
		{"too deep, escaped id key", `{"\u0069d":7,"params":` + deep(2000), "7"},
		{"too deep, closed and deep again", `{"id":8,"a":[[1]],"params":` + deep(2000), "8"},
		{"too deep, id after", `{"jsonrpc":"2.0","method":"x","params":` + deep(2000) + `],"id":7}`, ""},
		{"too deep, id only in params", `{"jsonrpc":"2.0","method":"x","params":{"id":7,"a":` + deep(2000), ""},
		{"too deep, the id itself", `{"jsonrpc":"2.0","id":` + deep(2000), ""},
		{"too deep, null id first", `{"id":null,"params":` + deep(2000), ""},
		{"too deep, fractional id first", `{"id":1.5,"params":` + deep(2000), ""},
		{"too deep, two ids first", `{"id":1,"id":2,"params":` + deep(2000), ""},
		{"too deep, batch", `[{"jsonrpc":"2.0","id":7,"method":"x","params":` + deep(2000), ""},

		// Two ids: which one the sender meant is unknown, so neither.
		{"two ids", `{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}`, ""},
		{"two equal ids", `{"jsonrpc":"2.0","id":1,"method":"m","id":1}`, ""},
		{"two ids, one escaped", `{"jsonrpc":"2.0","id":"a","\u0069d":"b","method":"m"}`, ""},
		{"three ids", `{"id":1,"jsonrpc":"2.0","id":2,"method":"m","id":3}`, ""},
		{"two ids, one null", `{"jsonrpc":"2.0","id":null,"id":5,"method":"m"}`, ""},
		{"two ids after another duplicate", `{"jsonrpc":"2.0","a":1,"a":2,"id":1,"id":2,"method":"m"}`, ""},
		{"two ids, map path", `{"jsonrpc":"2.0","method":"m",` + bigObject(40, map[int]string{3: `"id":1`, 39: `"id":2`})[1:], ""},
		{"two ids in params only", `{"jsonrpc":"2.0","id":7,"method":"m","params":{"id":1,"id":2}}`, "7"},
		{"id and a case variant", `{"jsonrpc":"2.0","id":7,"Id":8,"method":"m"}`, "7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			de := decodeErr(t, tt.line)
			if de.Err.Code != jsonrpc.CodeInvalidRequest {
				t.Errorf("code = %d (%s), want -32600", de.Err.Code, de.Err.Message)
			}
			if got := de.ID.Raw(); got != tt.wantID {
				t.Errorf("id = %q, want %q (%s)", got, tt.wantID, de.Err.Message)
			}
			checkErrorResponseLine(t, mustMarshal(t, de.Response()), jsonrpc.CodeInvalidRequest, tt.wantID)
		})
	}
}

// TestOversizeIDRules checks that the id of an oversize line is read by the
// rules Decode reads it by.
func TestOversizeIDRules(t *testing.T) {
	tests := []struct {
		prefix string
		want   string
	}{
		{`{"jsonrpc":"2.0","id":7,"method":"m","params":{"x":"aaa`, "7"},
		{`{"jsonrpc":"2.0","id":7`, ""},
		{`{"jsonrpc":"2.0","id":7 `, "7"},
		{`{"jsonrpc":"2.0","id":"s"`, `"s"`},
		{`{"jsonrpc":"2.0","id":1,"id":2,"method":"m","params":{"x":"aaa`, ""},
		{`{"jsonrpc":"2.0","id":1,"method":"m","params":{"id":2,"x":"aaa`, "1"},
	}
	for _, tt := range tests {
		if got := peekID([]byte(tt.prefix)).Raw(); got != tt.want {
			t.Errorf("OversizeError(%s) id = %q, want %q", tt.prefix, got, tt.want)
		}
	}
}

// TestDecodeErrorsClipInput checks that error texts quote what the client
// sent by the one rule of package clip, however long it was.
func TestDecodeErrorsClipInput(t *testing.T) {
	long := strings.Repeat("a", 10<<10)
	tests := []struct {
		name string
		line string
		want string // the clipped value the message must contain
	}{
		{"jsonrpc value", `{"jsonrpc":"` + long + `","id":1,"method":"m"}`, clip.Bytes([]byte(`"` + long + `"`))},
		{"id value", `{"jsonrpc":"2.0","id":[` + strings.Repeat("1,", 5000) + `1],"method":"m"}`,
			clip.Bytes([]byte(`[` + strings.Repeat("1,", 5000) + `1]`))},
		{"duplicate key", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"` + long + `":1,"` + long + `":2}}`, clip.Quote(long)},
		{"case-variant keys", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"` + long + `":1,"` + strings.ToUpper(long) + `":2}}`,
			clip.Quote(long) + " and " + clip.Quote(strings.ToUpper(long))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			de := decodeErr(t, tt.line)
			msg := de.Err.Message
			if !strings.Contains(msg, tt.want) {
				t.Errorf("message %.300q does not contain %q", msg, tt.want)
			}
			if len(msg) > 4*clip.Max+100 {
				t.Errorf("message of %d bytes for input of %d bytes", len(msg), len(tt.line))
			}
		})
	}
}
