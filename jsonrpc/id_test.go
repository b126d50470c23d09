package jsonrpc_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func TestIDRoundTripsExactly(t *testing.T) {
	tests := []struct {
		name     string
		id       string
		isString bool
	}{
		{"small int", `1`, false},
		{"zero", `0`, false},
		{"negative", `-7`, false},
		{"beyond float64 precision", `9007199254740993`, false},
		{"beyond int64", `123456789012345678901234567890`, false},
		{"string", `"abc"`, true},
		{"numeric string", `"1"`, true},
		{"empty string", `""`, true},
		{"escaped string kept as sent", `"\u0061b\/c"`, true},
		{"unicode string", `"héllo✓"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line := `{"jsonrpc":"2.0","id":` + tt.id + `,"method":"ping"}`
			req, ok := mustDecode(t, line).(*jsonrpc.Request)
			if !ok {
				t.Fatalf("Decode(%s) is not a *Request", line)
			}
			if got := req.ID.Raw(); got != tt.id {
				t.Errorf("ID.Raw() = %s, want %s", got, tt.id)
			}
			if got := req.ID.IsString(); got != tt.isString {
				t.Errorf("ID.IsString() = %v, want %v", got, tt.isString)
			}
			if got := mustMarshal(t, req); got != line {
				t.Errorf("Marshal(Decode(x)) =\n %s\nwant\n %s", got, line)
			}
			resp := mustMarshal(t, &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)})
			if want := `{"jsonrpc":"2.0","id":` + tt.id + `,"result":{}}`; resp != want {
				t.Errorf("response = %s, want %s", resp, want)
			}
		})
	}
}

func TestInvalidIDsMakeTheRequestInvalid(t *testing.T) {
	for _, id := range []string{
		`null`, `true`, `false`, `1.5`, `1.0`, `1e3`, `1E3`, `-0.0`, `{}`, `{"a":1}`, `[]`, `[1]`,
	} {
		t.Run(id, func(t *testing.T) {
			de := decodeErr(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
			if de.Err.Code != jsonrpc.CodeInvalidRequest {
				t.Errorf("code = %d, want %d", de.Err.Code, jsonrpc.CodeInvalidRequest)
			}
			if de.ID.IsValid() {
				t.Errorf("error carries id %s, want none", de.ID)
			}
			out := mustMarshal(t, de.Response())
			var m map[string]any
			if err := json.Unmarshal([]byte(out), &m); err != nil {
				t.Fatalf("error response %s is not JSON: %v", out, err)
			}
			if _, has := m["id"]; has {
				t.Errorf("error response %s has an id member, want none", out)
			}
		})
	}
}

func TestIDKey(t *testing.T) {
	same := [][2]jsonrpc.ID{
		{parseID(t, `"a"`), parseID(t, `"\u0061"`)},
		{parseID(t, `"a/b"`), parseID(t, `"a\/b"`)},
		{parseID(t, `"é"`), parseID(t, `"\u00e9"`)},
		{parseID(t, `"é"`), jsonrpc.StringID("é")},
		{parseID(t, `"\ud83d\ude00"`), jsonrpc.StringID("😀")},
		{parseID(t, `"x\ny"`), jsonrpc.StringID("x\ny")},
		{parseID(t, `42`), jsonrpc.Int64ID(42)},
		{parseID(t, `"abc"`), jsonrpc.StringID("abc")},
	}
	for _, p := range same {
		if p[0].Key() != p[1].Key() {
			t.Errorf("Key(%s) = %q, Key(%s) = %q, want equal", p[0], p[0].Key(), p[1], p[1].Key())
		}
	}
	differ := [][2]jsonrpc.ID{
		{parseID(t, `1`), parseID(t, `"1"`)},
		{jsonrpc.Int64ID(1), jsonrpc.StringID("1")},
		{parseID(t, `"a"`), parseID(t, `"A"`)},
		{parseID(t, `9007199254740993`), parseID(t, `9007199254740992`)},
		{jsonrpc.ID{}, jsonrpc.StringID("")},
	}
	for _, p := range differ {
		if p[0].Key() == p[1].Key() {
			t.Errorf("Key(%s) == Key(%s) = %q, want different", p[0], p[1], p[0].Key())
		}
	}
}

func TestIDConstructorsAndZero(t *testing.T) {
	var zero jsonrpc.ID
	if zero.IsValid() || zero.IsString() || zero.Raw() != "" || zero.String() != "<none>" {
		t.Errorf("zero ID: IsValid=%v IsString=%v Raw=%q String=%q", zero.IsValid(), zero.IsString(), zero.Raw(), zero.String())
	}
	if got := jsonrpc.Int64ID(-12).Raw(); got != `-12` {
		t.Errorf("Int64ID(-12).Raw() = %s", got)
	}
	if got := jsonrpc.StringID("a\"b").Raw(); got != `"a\"b"` {
		t.Errorf(`StringID("a\"b").Raw() = %s`, got)
	}
	if !jsonrpc.StringID("").IsValid() {
		t.Error(`StringID("") is not valid; an empty string is a valid id`)
	}
}

func TestIDJSON(t *testing.T) {
	var v struct{ ID jsonrpc.ID }
	if err := json.Unmarshal([]byte(`{"ID":9007199254740993}`), &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"ID":9007199254740993}` {
		t.Errorf("round trip through encoding/json = %s", b)
	}
	for _, bad := range []string{`null`, `1.5`, `true`, `[]`, `{}`} {
		if err := json.Unmarshal([]byte(`{"ID":`+bad+`}`), &v); err == nil {
			t.Errorf("UnmarshalJSON(%s) accepted", bad)
		}
	}
	b, _ = json.Marshal(struct{ ID jsonrpc.ID }{})
	if string(b) != `{"ID":null}` {
		t.Errorf("zero ID marshals as %s, want null", b)
	}
}

// parseID returns the id of a request that carries tok.
func parseID(t *testing.T, tok string) jsonrpc.ID {
	t.Helper()
	req, ok := mustDecode(t, `{"jsonrpc":"2.0","id":`+tok+`,"method":"m"}`).(*jsonrpc.Request)
	if !ok {
		t.Fatalf("id %s: not a request", tok)
	}
	return req.ID
}
