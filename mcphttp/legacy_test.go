package mcphttp_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// get opens a session's GET stream.
func (f *fixture) get(ctx context.Context, sid string) *http.Response {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.ts.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	return f.do(req)
}

func (f *fixture) delete(sid string) int {
	req, _ := http.NewRequest(http.MethodDelete, f.ts.URL, nil)
	req.Header.Set("Mcp-Session-Id", sid)
	return readReply(f.t, f.do(req)).status
}

// The life of a legacy session: initialize gives an unguessable id; later
// POSTs need it (missing 400, unknown 404); its GET stream gets
// list_changed when a tool is added, one stream at a time; DELETE ends it.
func TestLegacySessionLifecycle(t *testing.T) {
	srv := newServer(t, progressTool())
	f := start(t, srv, nil)
	sid := f.initialize(`{}`)
	if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(sid) {
		t.Errorf("session id %q", sid)
	}
	if other := f.initialize(`{}`); other == sid {
		t.Error("two sessions share an id")
	}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	if r := f.postRead(legacyHeaders(sid), list); r.status != 200 || !strings.Contains(r.body, `"steps"`) {
		t.Fatalf("tools/list: %d %s", r.status, r.body)
	}
	if r := f.postRead(legacyHeaders(""), list); r.status != 400 || !strings.Contains(r.errorMessage(), "Mcp-Session-Id") {
		t.Errorf("without a session id: %d %s", r.status, r.body)
	}
	if r := f.postRead(legacyHeaders("0123456789abcdef0123456789abcdef"), list); r.status != 404 {
		t.Errorf("unknown session: %d %s", r.status, r.body)
	}
	// An error is 200 in the legacy era.
	if r := f.postRead(legacyHeaders(sid), `{"jsonrpc":"2.0","id":3,"method":"nope"}`); r.status != 200 || r.errorCode() != -32601 {
		t.Errorf("unknown method: %d %s", r.status, r.body)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := f.get(ctx, sid)
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if second := readReply(t, f.get(context.Background(), sid)); second.status != http.StatusConflict {
		t.Errorf("a second GET: %d %s", second.status, second.body)
	}
	sse := newSSEReader(t, resp.Body)
	srv.MustAddTool(rawTool("later", func(context.Context, json.RawMessage) (*tool.Result, error) { return tool.TextResult("x"), nil }))
	if m := sse.nextMessage(); m["method"] != protocol.NotificationToolListChanged {
		t.Errorf("GET stream: %v", m)
	}

	if st := f.delete(sid); st != http.StatusNoContent {
		t.Errorf("DELETE: %d", st)
	}
	if _, ok := sse.next(); ok {
		t.Error("the GET stream outlived its session")
	}
	if r := f.postRead(legacyHeaders(sid), list); r.status != 404 {
		t.Errorf("after DELETE: %d %s", r.status, r.body)
	}
	if st := f.delete(sid); st != 404 {
		t.Errorf("DELETE twice: %d", st)
	}
	if r := readReply(t, f.get(context.Background(), sid)); r.status != 404 {
		t.Errorf("GET after DELETE: %d", r.status)
	}
}

// A legacy call's elicitation request arrives on the call's own POST
// stream; the client POSTs its answer (202) and the result follows on the
// same stream.
func TestLegacyElicitation(t *testing.T) {
	form := protocol.RequestedSchema{
		Properties: map[string]protocol.PrimitiveSchemaDefinition{"name": {String: &protocol.StringSchema{}}},
		Required:   []string{"name"},
	}
	greet := rawTool("greet", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		reply, err := ask.Elicit(ctx, "What is your name?", form, ask.Key("name"))
		if err != nil {
			return nil, err
		}
		return tool.TextResult(fmt.Sprintf("Hello, %v!", reply.Content["name"])), nil
	})
	f := start(t, newServer(t, greet), nil)
	sid := f.initialize(`{"elicitation":{}}`)
	resp := f.post(context.Background(), legacyHeaders(sid), `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"greet"}}`)
	defer resp.Body.Close()
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	sse := newSSEReader(t, resp.Body)
	q := sse.nextMessage()
	if q["method"] != "elicitation/create" || q["id"] == nil {
		t.Fatalf("first event: %v", q)
	}
	id, _ := json.Marshal(q["id"])
	answer := `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"action":"accept","content":{"name":"Ada"}}}`
	if r := f.postRead(legacyHeaders(sid), answer); r.status != http.StatusAccepted || r.body != "" {
		t.Fatalf("answer: %d %s", r.status, r.body)
	}
	m := sse.nextMessage()
	if m["id"] != float64(5) || !strings.Contains(fmt.Sprint(m["result"]), "Hello, Ada!") {
		t.Errorf("result: %v", m)
	}
}

// notifications/cancelled for a call in flight ends that call's POST,
// also when a member other than requestId does not decode (the endpoint
// cancels the call then too).
func TestLegacyCancelled(t *testing.T) {
	for name, params := range map[string]string{
		"plain":      `{"requestId":"c1"}`,
		"bad reason": `{"reason":5,"requestId":"c1"}`,
	} {
		t.Run(name, func(t *testing.T) {
			started := make(chan struct{})
			block := rawTool("block", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
				close(started)
				<-ctx.Done()
				return nil, ctx.Err()
			})
			f := start(t, newServer(t, block), nil)
			sid := f.initialize(`{}`)
			done := make(chan reply, 1)
			go func() {
				done <- readReply(t, f.post(context.Background(), legacyHeaders(sid), `{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"block"}}`))
			}()
			<-started
			if r := f.postRead(legacyHeaders(sid), `{"jsonrpc":"2.0","method":"notifications/cancelled","params":`+params+`}`); r.status != 202 {
				t.Fatalf("cancel: %d %s", r.status, r.body)
			}
			select {
			case r := <-done:
				if r.status != http.StatusNoContent {
					t.Errorf("cancelled call: %d %s", r.status, r.body)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the cancelled call's POST did not end")
			}
		})
	}
}

// MaxSessions bounds the sessions; SessionIdleTimeout ends idle ones.
func TestLegacySessionLimits(t *testing.T) {
	f := start(t, newServer(t), &mcphttp.Options{MaxSessions: 1, SessionIdleTimeout: 100 * time.Millisecond})
	sid := f.initialize(`{}`)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	r := f.postRead(legacyHeaders(""), init)
	if r.status != http.StatusServiceUnavailable || r.errorCode() != -32603 || r.header.Get("Mcp-Session-Id") != "" {
		t.Errorf("beyond MaxSessions: %d %s", r.status, r.body)
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		r := f.postRead(legacyHeaders(sid), `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
		if r.status == 404 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the idle session did not expire: %d %s", r.status, r.body)
		}
		time.Sleep(150 * time.Millisecond)
	}
	// Its place is free again.
	f.initialize(`{}`)
}

// Close ends the sessions and their GET streams; requests get 503 after.
func TestCloseEndsSessions(t *testing.T) {
	f := start(t, newServer(t), nil)
	sid := f.initialize(`{}`)
	hd := legacyHeaders(sid)
	hd.Set("MCP-Protocol-Version", "1999-01-01")
	if r := f.postRead(hd, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); r.status != 400 || !strings.Contains(r.errorMessage(), "MCP-Protocol-Version") {
		t.Errorf("unsupported version header: %d %s", r.status, r.body)
	}
	req, _ := http.NewRequest(http.MethodGet, f.ts.URL, nil)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Mcp-Session-Id", sid)
	if r := readReply(t, f.do(req)); r.status != http.StatusNotAcceptable {
		t.Errorf("GET accepting only JSON: %d", r.status)
	}
	resp := f.get(context.Background(), sid)
	defer resp.Body.Close()
	sse := newSSEReader(t, resp.Body)
	f.h.Close()
	for {
		ev, ok := sse.next()
		if !ok {
			break
		}
		if ev.comment == "" {
			t.Errorf("event: %+v", ev)
		}
	}
	if r := f.postRead(legacyHeaders(sid), `{"jsonrpc":"2.0","id":3,"method":"ping"}`); r.status != http.StatusServiceUnavailable {
		t.Errorf("after Close: %d %s", r.status, r.body)
	}
}
