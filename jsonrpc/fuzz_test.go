package jsonrpc_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// FuzzDecode checks that Decode never panics, fails only with -32700 or
// -32600, and that every message it returns survives Marshal and a second
// Decode unchanged. Seeds are in testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"x","result":{}}`,
		`{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},1]`,
		`{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":1,"Name":2}}`,
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"m"}`,
		`{"jsonrpc":"2.0","id":"\u0061\ud800","method":"\ud83d\ude00"}`,
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		orig := bytes.Clone(data)
		msg, err := jsonrpc.Decode(data)
		if !bytes.Equal(orig, data) {
			t.Fatal("Decode modified its input")
		}
		if err != nil {
			checkDecodeError(t, data, err)
			if msg != nil {
				t.Fatalf("Decode returned both %#v and %v", msg, err)
			}
			var de *jsonrpc.DecodeError
			errors.As(err, &de)
			if de.Err.Code == jsonrpc.CodeParseError && json.Valid(data) && utf8.Valid(data) {
				t.Fatalf("valid JSON %q gave a parse error: %v", data, err)
			}
			return
		}
		if !json.Valid(data) || !utf8.Valid(data) {
			t.Fatalf("Decode accepted %q, which is not valid UTF-8 JSON", data)
		}
		if b, ok := msg.(jsonrpc.Batch); ok {
			if len(b) == 0 {
				t.Fatal("Decode returned an empty batch")
			}
			for _, item := range b {
				if (item.Msg == nil) == (item.Err == nil) {
					t.Fatalf("batch item %#v must hold exactly one of Msg and Err", item)
				}
				if item.Err != nil {
					checkDecodeError(t, data, item.Err)
					continue
				}
				checkRoundTrip(t, item.Msg, data)
			}
			return
		}
		checkRoundTrip(t, msg, data)
	})
}

// checkDecodeError checks that err is a *DecodeError with a decoding code
// whose id, if any, was read from data.
func checkDecodeError(t *testing.T, data []byte, err error) {
	var de *jsonrpc.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("error %T %v is not a *jsonrpc.DecodeError", err, err)
	}
	if c := de.Err.Code; c != jsonrpc.CodeParseError && c != jsonrpc.CodeInvalidRequest {
		t.Fatalf("error code %d, want -32700 or -32600", c)
	}
	if de.ID.IsValid() && !bytes.Contains(data, []byte(de.ID.Raw())) {
		t.Fatalf("error id %s does not occur in the input", de.ID)
	}
	line, mErr := jsonrpc.Marshal(de.Response())
	if mErr != nil || !json.Valid(line) || !utf8.Valid(line) {
		t.Fatalf("error response %q is not valid JSON: %v", line, mErr)
	}
}

// checkRoundTrip checks that msg marshals to valid JSON that decodes to an
// equal message.
func checkRoundTrip(t *testing.T, msg jsonrpc.Message, data []byte) {
	out, err := jsonrpc.Marshal(msg)
	if err != nil {
		t.Fatalf("Marshal(%#v): %v", msg, err)
	}
	if !json.Valid(out) || !utf8.Valid(out) {
		t.Fatalf("Marshal gave invalid JSON %q", out)
	}
	if !bytes.Contains(data, []byte("\n")) && bytes.Contains(out, []byte("\n")) {
		t.Fatalf("Marshal gave a line break: %q", out)
	}
	again, err := jsonrpc.Decode(out)
	if err != nil {
		t.Fatalf("Decode(Marshal(msg)) = %v\n in:  %q\n out: %q", err, data, out)
	}
	if diff := cmp.Diff(msg, again, msgOpts); diff != "" {
		t.Fatalf("round trip changed the message (-first +second):\n%s\n in:  %q\n out: %q", diff, data, out)
	}
}
