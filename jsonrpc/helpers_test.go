package jsonrpc_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// msgOpts compares messages: ids by their raw token, raw JSON by bytes
// (nil and empty alike).
var msgOpts = cmp.Options{
	cmp.Comparer(func(a, b jsonrpc.ID) bool { return a.Raw() == b.Raw() }),
	cmpopts.EquateEmpty(),
}

// decodeErr decodes line and returns the *DecodeError it must give.
func decodeErr(t *testing.T, line string) *jsonrpc.DecodeError {
	t.Helper()
	msg, err := jsonrpc.Decode([]byte(line))
	if err == nil {
		t.Fatalf("Decode(%.80q) = %#v, want an error", line, msg)
	}
	var de *jsonrpc.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("Decode(%.80q) error %T %v, want *jsonrpc.DecodeError", line, err, err)
	}
	if msg != nil {
		t.Errorf("Decode(%.80q) returned message %#v along with an error", line, msg)
	}
	return de
}

// mustDecode decodes line and fails the test on error.
func mustDecode(t *testing.T, line string) jsonrpc.Message {
	t.Helper()
	msg, err := jsonrpc.Decode([]byte(line))
	if err != nil {
		t.Fatalf("Decode(%.80q): %v", line, err)
	}
	return msg
}

// mustMarshal marshals m and fails the test on error.
func mustMarshal(t *testing.T, m jsonrpc.Message) string {
	t.Helper()
	b, err := jsonrpc.Marshal(m)
	if err != nil {
		t.Fatalf("Marshal(%#v): %v", m, err)
	}
	return string(b)
}
