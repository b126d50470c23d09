package mcphttp_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/header"
	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/tool"
)

// postStatuses are the statuses the package documentation gives a POST:
// 406 is a subscriptions/listen whose Accept refuses a stream, 408 a body
// that did not arrive in time, 429 a caller over a quota.
var postStatuses = []int{
	http.StatusOK, http.StatusAccepted, http.StatusNoContent, http.StatusBadRequest,
	http.StatusForbidden, http.StatusNotFound, http.StatusNotAcceptable, http.StatusRequestTimeout,
	http.StatusRequestEntityTooLarge, http.StatusTooManyRequests, http.StatusServiceUnavailable,
}

// fuzzPostTimeout bounds one fuzzed POST: a subscriptions/listen stream
// lasts until the client leaves, so it is left after this long.
const fuzzPostTimeout = 150 * time.Millisecond

// fuzzRegionTool has an x-mcp-header annotation, so that fuzzed headers
// reach the Mcp-Param checks.
func fuzzRegionTool() tool.Tool {
	return tool.Tool{Name: "region", Description: "region",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer","x-mcp-header":"N"}}}`),
		Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
			return tool.TextResult("ok"), nil
		}}
}

// FuzzPost POSTs arbitrary bodies, with headers derived from the body
// (flags&1, so that the fuzzer gets past the header checks), an Accept
// chosen by flags (both, JSON only, none) and extra "Name: value" header
// lines, to a fresh Handler. Whatever comes in, the handler does not panic,
// answers with a documented status, answers 202 and 204 with no body and
// anything else with exactly one JSON-RPC response, as JSON or as an event
// stream of well-formed messages ending with it; and a response carrying an
// id carries the request's id byte for byte (a 200 must carry it).
func FuzzPost(f *testing.F) {
	before := leakcheck.Snapshot()
	srv := newServer(f, progressTool(), fuzzRegionTool())
	f.Cleanup(func() { leakcheck.Check(f, before) })

	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, seed := range []struct {
		body, headers string
		flags         uint8
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`, "", 1},
		{`{"jsonrpc":"2.0","id":"a\u00e9","method":"tools/call","params":{"name":"steps","_meta":{"progressToken":1,` + meta[9:] + `}}`, "", 1},
		{`{"jsonrpc":"2.0","id":2.50,"method":"tools/call","params":{"name":"steps",` + meta + `}}`, "", 3},
		{`{"jsonrpc":"2.0","id":-0,"method":"tools/call","params":{"name":"region","arguments":{"region":"eu","n":42},` + meta + `}}`, "Mcp-Param-N: 42.0", 1},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"steps","_meta":{"progressToken":"p",` + meta[9:] + `}}`, "", 3},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"region","arguments":{"region":" x "},` + meta + `}}`, "", 1},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"region","arguments":{"region":" x "},` + meta + `}}`,
			"MCP-Protocol-Version: 2026-07-28\nMcp-Method: tools/call\nMcp-Name: region\nMcp-Param-Region: x", 0},
		{`{"jsonrpc":"2.0","id":4,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + meta + `}}`, "", 1},
		{`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,` + meta + `}}`, "", 1},
		{`{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`, "", 0},
		{`{"jsonrpc":"2.0","id":6,"method":"tools/list"}`, "Mcp-Session-Id: nope\nMCP-Protocol-Version: 2025-11-25", 0},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{` + meta + `}}`, "Mcp-Method: tools/call", 0},
		{`{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{` + meta + `}}`, "Origin: https://evil.example", 1},
		{`{"jsonrpc":"2.0","id":9,"method":"nope","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01"}}}`, "", 1},
		{`{"jsonrpc":"2.0","id":10,"result":{}}`, "", 0},
		{`{"jsonrpc":"2.0","id":11}`, "", 0},
		{`[{"jsonrpc":"2.0","id":12,"method":"ping"}]`, "", 0},
		{`{"jsonrpc":"2.0",`, "", 1},
		{``, "", 0},
		{`null`, "", 2},
		{`{"jsonrpc":"2.0","id":13,"id":14,"method":"tools/list","params":{` + meta + `}}`, "", 1},
		{`{"jsonrpc":"2.0","id":"` + strings.Repeat("x", 5000) + `","method":"ping"}`, "", 0},
		{`{"jsonrpc":"1.0","id":15,"method":"tools/list","params":{` + meta + `}}`, "MCP-Protocol-Version: 2026-07-28\nMCP-Protocol-Version: 2026-07-28", 4},
	} {
		f.Add(seed.body, seed.headers, seed.flags)
	}
	f.Fuzz(func(t *testing.T, body, headers string, flags uint8) {
		h := mcphttp.NewHandler(srv, &mcphttp.Options{MaxBodyBytes: 4096, Logger: fuzzPostLog})
		defer h.Close()
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
		ctx, cancel := context.WithTimeout(context.Background(), fuzzPostTimeout)
		defer cancel()
		req = req.WithContext(ctx)
		req.Header.Set("Content-Type", "application/json")
		switch flags >> 1 & 3 {
		case 0, 3:
			req.Header.Set("Accept", "application/json, text/event-stream")
		case 1:
			req.Header.Set("Accept", "application/json")
		}
		if flags&1 != 0 {
			deriveHeaders(req.Header, body)
		}
		for line := range strings.Lines(headers) {
			k, v, ok := strings.Cut(strings.TrimRight(line, "\r\n"), ":")
			if !ok || k == "" {
				continue
			}
			if strings.EqualFold(strings.TrimSpace(k), "Host") {
				req.Host = strings.TrimSpace(v)
				continue
			}
			req.Header.Add(k, strings.TrimSpace(v))
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		timedOut := ctx.Err() != nil
		checkPostReply(t, body, rec, timedOut)
	})
}

// fuzzPostLog discards the handler's logs.
var fuzzPostLog = slog.New(slog.NewTextHandler(io.Discard, nil))

// deriveHeaders sets the headers a 2026-07-28 client would send for body,
// as far as body can be read.
func deriveHeaders(hd http.Header, body string) {
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name      any            `json:"name"`
			URI       any            `json:"uri"`
			Arguments map[string]any `json:"arguments"`
			Meta      map[string]any `json:"_meta"`
		} `json:"params"`
	}
	_ = json.Unmarshal([]byte(body), &m)
	version, _ := m.Params.Meta["io.modelcontextprotocol/protocolVersion"].(string)
	if version == "" {
		version = "2026-07-28"
	}
	hd.Set("MCP-Protocol-Version", header.EncodeValue(version))
	if m.Method != "" {
		hd.Set("Mcp-Method", header.EncodeValue(m.Method))
	}
	name, ok := m.Params.Name.(string)
	if !ok {
		name, ok = m.Params.URI.(string)
	}
	if ok {
		hd.Set("Mcp-Name", header.EncodeValue(name))
	}
	if r, ok := m.Params.Arguments["region"].(string); ok {
		hd.Set("Mcp-Param-Region", header.EncodeValue(r))
	}
}

// checkPostReply checks the invariants of FuzzPost on one response.
func checkPostReply(t *testing.T, body string, rec *httptest.ResponseRecorder, timedOut bool) {
	t.Helper()
	status, out := rec.Code, rec.Body.Bytes()
	if !slices.Contains(postStatuses, status) {
		t.Fatalf("status %d is not one a POST gets; body %q", status, out)
	}
	wantID := requestID(body)
	if status == http.StatusAccepted || status == http.StatusNoContent {
		if len(out) != 0 {
			t.Fatalf("%d with a body: %q", status, out)
		}
		return
	}
	var resp []byte
	switch ct := rec.Header().Get("Content-Type"); ct {
	case "application/json":
		if !bytes.HasSuffix(out, []byte("\n")) || bytes.Count(out, []byte("\n")) != 1 {
			t.Fatalf("a JSON body is one line: %q", out)
		}
		if kind := messageKind(t, out); kind != "response" {
			t.Fatalf("the JSON body is a %s, not a response: %q", kind, out)
		}
		resp = out
	case "text/event-stream":
		if status != http.StatusOK {
			t.Fatalf("an event stream with status %d", status)
		}
		resp = checkEventStream(t, out, timedOut)
		if resp == nil {
			return // left before the response (a listen stream)
		}
	default:
		t.Fatalf("status %d with Content-Type %q: %q", status, ct, out)
	}
	var env struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(resp, &env); err != nil {
		t.Fatalf("response %q: %v", resp, err)
	}
	switch {
	case env.ID != nil && wantID != "" && string(env.ID) != wantID:
		t.Fatalf("response id %s, want the request's %s byte for byte", env.ID, wantID)
	case env.ID != nil && wantID == "" && string(env.ID) != "null":
		t.Fatalf("response id %s to a body without a readable id: %q", env.ID, body)
	case env.ID == nil && wantID != "" && status == http.StatusOK:
		t.Fatalf("a 200 response without the request's id %s: %q", wantID, resp)
	}
}

// requestID returns the raw id of body when it is a request (or an invalid
// message whose id could be read), "" otherwise.
func requestID(body string) string {
	m, err := jsonrpc.Decode([]byte(body))
	var de *jsonrpc.DecodeError
	switch {
	case err == nil:
		if r, ok := m.(*jsonrpc.Request); ok {
			return r.ID.Raw()
		}
	case errors.As(err, &de):
		return de.ID.Raw()
	}
	return ""
}

// messageKind checks that b holds exactly one well-formed JSON-RPC message
// and says which kind: "request", "notification" or "response".
func messageKind(t *testing.T, b []byte) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	var m map[string]json.RawMessage
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("not a JSON object: %q: %v", b, err)
	}
	var rest any
	if err := dec.Decode(&rest); !errors.Is(err, io.EOF) {
		t.Fatalf("more than one JSON value: %q", b)
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		t.Fatalf("jsonrpc is not \"2.0\": %q", b)
	}
	_, hasMethod := m["method"]
	_, hasResult := m["result"]
	e, hasError := m["error"]
	switch {
	case hasMethod && !hasResult && !hasError:
		if _, ok := m["id"]; ok {
			return "request"
		}
		return "notification"
	case hasMethod || hasResult == hasError:
		t.Fatalf("not a request, notification or response: %q", b)
	case hasError:
		var er struct {
			Code    *int64  `json:"code"`
			Message *string `json:"message"`
		}
		if json.Unmarshal(e, &er) != nil || er.Code == nil || er.Message == nil {
			t.Fatalf("an error without an integer code and a message: %q", b)
		}
	}
	return "response"
}

// checkEventStream checks an event stream and returns its last event's
// data, the response, nil when the client left (timedOut) before it came.
func checkEventStream(t *testing.T, out []byte, timedOut bool) []byte {
	t.Helper()
	if !bytes.HasSuffix(out, []byte("\n\n")) {
		t.Fatalf("the stream does not end with a whole event: %q", out)
	}
	var resp []byte
	for _, block := range strings.Split(strings.TrimSuffix(string(out), "\n\n"), "\n\n") {
		if strings.HasPrefix(block, ":") {
			continue // a keep-alive comment
		}
		if resp != nil {
			t.Fatalf("an event after the response: %q", block)
		}
		lines := strings.Split(block, "\n")
		if len(lines) != 3 || !strings.HasPrefix(lines[0], "id: ") || lines[1] != "event: message" || !strings.HasPrefix(lines[2], "data: ") {
			t.Fatalf("an event other than id, event: message, data: %q", block)
		}
		data := []byte(strings.TrimPrefix(lines[2], "data: "))
		if messageKind(t, data) == "response" {
			resp = data
		}
	}
	if resp == nil && !timedOut {
		t.Fatalf("the stream ended without a response: %q", out)
	}
	return resp
}
