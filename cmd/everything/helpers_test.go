package main

import (
	"io"
	"log/slog"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/golden"
	"github.com/mcpwire/mcpwire/internal/wirecheck"
)

// quietLogger discards the server's logs in tests.
func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// schemaChecker validates every server line of a transcript against the
// official schema of the negotiated revision, strictly (no key the revision
// does not define).
//
// Two cases have no schema of their own and are checked against 2025-11-25:
// lines written before initialize, and error responses whose request id
// could not be read. Revisions before 2025-11-25 require an id in every
// error response, yet JSON-RPC has none to give when the id is unreadable;
// mcpwire omits it, the form 2025-11-25 and later define.
func schemaChecker(t *testing.T) golden.Checker {
	c, err := wirecheck.Load("../../testdata/schema")
	if err != nil {
		t.Fatal(err)
	}
	return func(rev string, methodOf func([]byte) string, line []byte) error {
		if rev == "" || (rev < "2025-11-25" && idlessError(line)) {
			rev = "2025-11-25"
		}
		return c.ServerMessageFunc(rev, methodOf, line)
	}
}

// idlessError reports whether line is an error response without an id (or
// a batch holding one).
func idlessError(line []byte) bool {
	trimmed := strings.TrimSpace(string(line))
	if strings.HasPrefix(trimmed, "[") {
		var items []json.RawMessage
		if json.Unmarshal(line, &items) != nil {
			return false
		}
		for _, it := range items {
			if idlessError(it) {
				return true
			}
		}
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return false
	}
	_, hasID := m["id"]
	_, hasErr := m["error"]
	return hasErr && !hasID
}
