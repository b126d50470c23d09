package mcphttp_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

// initialize20250326 opens a legacy session that negotiated 2025-03-26,
// the one revision with batches, and returns its id.
func (f *fixture) initialize20250326() string {
	f.t.Helper()
	r := f.postRead(legacyHeaders(""), `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	sid := r.header.Get("Mcp-Session-Id")
	if r.status != http.StatusOK || sid == "" {
		f.t.Fatalf("initialize: %d %s", r.status, r.body)
	}
	hd := legacyHeaders(sid)
	hd.Set("MCP-Protocol-Version", "2025-03-26")
	if r := f.postRead(hd, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); r.status != http.StatusAccepted {
		f.t.Fatalf("initialized: %d %s", r.status, r.body)
	}
	return sid
}

// A 2025-03-26 session serves batches: the responses come back as one
// array in the order of the requests (notifications get none), as one
// event after the calls' own messages when they send some, and a batch
// with nothing to answer gets 202. Other sessions, and POSTs without one,
// refuse a batch with 400.
func TestLegacyBatch(t *testing.T) {
	f := start(t, newServer(t, progressTool()), nil)
	sid := f.initialize20250326()
	hd := legacyHeaders(sid)
	hd.Set("MCP-Protocol-Version", "2025-03-26")

	resp := f.post(t.Context(), hd, `[{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"steps"}},`+
		`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var arr []map[string]any
	if err := json.Unmarshal(body, &arr); resp.StatusCode != http.StatusOK || err != nil || len(arr) != 2 ||
		resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("batch: %d %s", resp.StatusCode, body)
	}
	if arr[0]["id"] != "a" || !strings.Contains(string(body), `"done"`) || arr[1]["id"] != float64(2) {
		t.Errorf("responses out of order or wrong: %s", body)
	}

	resp = f.post(t.Context(), hd, `[{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"steps","_meta":{"progressToken":"p"}}}]`)
	sse := newSSEReader(t, resp.Body)
	for i := range 3 {
		if ev, ok := sse.next(); !ok || !strings.Contains(ev.data, "notifications/progress") {
			t.Fatalf("event %d: %+v", i, ev)
		}
	}
	if ev, ok := sse.next(); !ok || !strings.HasPrefix(ev.data, `[{"jsonrpc":"2.0","id":3`) {
		t.Fatalf("the batch's responses: %+v", ev)
	}
	resp.Body.Close()

	if r := f.postRead(hd, `[{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]`); r.status != http.StatusAccepted || r.body != "" {
		t.Errorf("notifications only: %d %q", r.status, r.body)
	}

	newer := f.initialize(`{}`)
	if r := f.postRead(legacyHeaders(newer), `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`); r.status != http.StatusBadRequest || r.errorCode() != -32600 {
		t.Errorf("a batch in a 2025-11-25 session: %d %s", r.status, r.body)
	}
	if r := f.postRead(legacyHeaders(""), `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`); r.status != http.StatusBadRequest || r.errorCode() != -32600 {
		t.Errorf("a batch without a session: %d %s", r.status, r.body)
	}
}

// A 2026-07-28 message inside a batch is refused, the whole batch with
// it: its era has no batches, and its headers could not be checked
// against it.
func TestBatchRefusesModernMessages(t *testing.T) {
	f := start(t, newServer(t, progressTool()), nil)
	sid := f.initialize20250326()
	hd := legacyHeaders(sid)
	hd.Set("MCP-Protocol-Version", "2025-03-26")
	modern := modernBody(2, "tools/call", map[string]any{"name": "steps"}, nil)
	for name, batch := range map[string]string{
		"request":      `[{"jsonrpc":"2.0","id":1,"method":"ping"},` + modern + `]`,
		"notification": `[` + modernBody(nil, "notifications/cancelled", map[string]any{"requestId": 1}, nil) + `]`,
	} {
		r := f.postRead(hd, batch)
		if r.status != http.StatusBadRequest || r.errorCode() != -32600 || !strings.Contains(r.errorMessage(), "2026-07-28") {
			t.Errorf("a batch with a modern %s: %d %s", name, r.status, r.body)
		}
	}
	resp := f.post(t.Context(), hd, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(string(body), `[{"jsonrpc":"2.0","id":1,"result"`) {
		t.Errorf("a legacy batch afterwards: %d %s", resp.StatusCode, body)
	}
}
