package mcphttp_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcphttp"
)

// DELETE checks a session's owner as every other method does: bob, behind
// the same OAuth middleware, presenting alice's Mcp-Session-Id gets the 404
// of an unknown session, and her session goes on; alice herself may end it.
func TestDeleteOwner(t *testing.T) {
	h := mcphttp.NewHandler(newServer(t, progressTool()), nil)
	defer h.Close()
	ts := asCaller(t, h)
	send := func(who, method, sid, body string) (int, http.Header) {
		t.Helper()
		req, _ := http.NewRequest(method, ts.URL, strings.NewReader(body))
		req.Header = legacyHeaders(sid)
		req.Header.Set("X-Test-Caller", who)
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, resp.Header
	}
	status, hd := send("alice", http.MethodPost, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	sid := hd.Get("Mcp-Session-Id")
	if status != http.StatusOK || sid == "" {
		t.Fatalf("initialize as alice: %d %q", status, sid)
	}
	if status, _ := send("alice", http.MethodPost, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); status != http.StatusAccepted {
		t.Fatalf("initialized: %d", status)
	}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	if status, _ := send("bob", http.MethodDelete, sid, ""); status != http.StatusNotFound {
		t.Errorf("bob deleting alice's session: %d, want 404", status)
	}
	if status, _ := send("alice", http.MethodPost, sid, list); status != http.StatusOK {
		t.Errorf("alice after bob's DELETE: %d, want 200", status)
	}
	if status, _ := send("alice", http.MethodDelete, sid, ""); status != http.StatusNoContent {
		t.Errorf("alice deleting her session: %d, want 204", status)
	}
	if status, _ := send("alice", http.MethodPost, sid, list); status != http.StatusNotFound {
		t.Errorf("alice after her DELETE: %d, want 404", status)
	}
}
