package client

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

func acceptAll(_ context.Context, p *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
	return &protocol.ElicitResult{Action: protocol.ElicitAccept, Content: protocol.Object{"ok": json.RawMessage("true")}}, nil
}

func rootsAnswer(context.Context) (*protocol.ListRootsResult, error) {
	return &protocol.ListRootsResult{Roots: []protocol.Root{{URI: "file:///src"}}}, nil
}

func sampleAnswer(_ context.Context, p *protocol.CreateMessageRequestParams) (*protocol.CreateMessageResult, error) {
	return &protocol.CreateMessageResult{Role: protocol.RoleAssistant, Model: "m",
		Content: protocol.SamplingContent{Blocks: []protocol.SamplingContentBlock{{Text: &protocol.TextContent{Text: "hi"}}}}}, nil
}

// The modern era adds the per-request _meta and keeps the caller's keys;
// the legacy era sends params as they are.
func TestCallParams(t *testing.T) {
	tests := []struct {
		name   string
		params any
		want   string // params the server gets, _meta members beside the session's listed
		keep   map[string]string
	}{
		{name: "none", params: nil, want: `{}`},
		{name: "raw object", params: json.RawMessage(`{"name":"x","arguments":{"a":1}}`), want: `{"name":"x","arguments":{"a":1}}`},
		{name: "Go value", params: map[string]any{"uri": "test://a"}, want: `{"uri":"test://a"}`},
		{name: "caller's _meta kept", params: json.RawMessage(`{"_meta":{"progressToken":7,"io.modelcontextprotocol/protocolVersion":"1999-01-01"}}`),
			want: `{}`, keep: map[string]string{"progressToken": "7", "io.modelcontextprotocol/protocolVersion": `"1999-01-01"`}},
	}
	sess, p := connect(t, modern(nil), Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			result, rpcErr, err := sess.Call(bounded(t), "x/echo", tt.params)
			if err != nil || rpcErr != nil {
				t.Fatalf("Call: %v %v", rpcErr, err)
			}
			var echo struct {
				Echo map[string]json.RawMessage `json:"echo"`
			}
			if err := json.Unmarshal(result, &echo); err != nil {
				t.Fatalf("%s: %v", result, err)
			}
			meta := map[string]json.RawMessage{}
			json.Unmarshal(echo.Echo["_meta"], &meta)
			delete(echo.Echo, "_meta")
			got, _ := json.Marshal(echo.Echo)
			if !jsonEqual(t, got, tt.want) {
				t.Errorf("params %s, want %s", got, tt.want)
			}
			for _, k := range []string{"io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities", "io.modelcontextprotocol/clientInfo"} {
				if meta[k] == nil {
					t.Errorf("_meta lacks %s: %v", k, meta)
				}
			}
			for k, v := range tt.keep {
				if string(meta[k]) != v {
					t.Errorf("_meta[%s] = %s, want %s", k, meta[k], v)
				}
			}
		})
	}
	if got := p.requests("x/echo"); len(got) != len(tests) {
		t.Errorf("%d requests, want %d", len(got), len(tests))
	}

	lsess, lp := connect(t, legacy(nil, nil), Options{Era: protocol.Legacy})
	if _, _, err := lsess.Call(bounded(t), "tools/list", nil); err != nil {
		t.Fatal(err)
	}
	if r := lp.requests("tools/list")[0]; r.Params != nil {
		t.Errorf("legacy params %s, want none", r.Params)
	}
}

// Ids count from 1 and never repeat; error responses come back as rpcErr.
func TestCallIDsAndErrors(t *testing.T) {
	sess, p := connect(t, modern(func(p *peer, m jsonrpc.Message) {
		r := m.(*jsonrpc.Request)
		p.fail(r.ID, -32602, `{"why":"test"}`)
	}), Options{Era: protocol.Modern})
	for range 3 {
		_, rpcErr, err := sess.Call(bounded(t), "tools/call", nil)
		if err != nil || rpcErr == nil || rpcErr.Code != -32602 || string(rpcErr.Data) != `{"why":"test"}` {
			t.Fatalf("Call = %v, %v; want -32602 with data", rpcErr, err)
		}
	}
	seen := map[string]bool{}
	for _, m := range p.sent() {
		if r, ok := m.(*jsonrpc.Request); ok {
			if seen[r.ID.Raw()] || r.ID.IsString() {
				t.Errorf("id %s repeated or not an integer", r.ID)
			}
			seen[r.ID.Raw()] = true
		}
	}
	if !seen["1"] || !seen["4"] {
		t.Errorf("ids %v, want 1 to 4", seen)
	}
}

// A server that never answers: the caller's context bounds the call, the
// server is told, and its late answer is dropped quietly.
func TestCallHangingServer(t *testing.T) {
	sess, p := connect(t, modern(func(p *peer, m jsonrpc.Message) {
		if r, ok := m.(*jsonrpc.Request); ok && r.Method != "tools/call" {
			p.result(r.ID, `{}`)
		}
	}), Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, _, err := sess.Call(ctx, "tools/call", json.RawMessage(`{"name":"slow"}`))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Call = %v, want a deadline error", err)
	}
	call := p.requests("tools/call")[0]
	cancelled := p.waitFor(func(m jsonrpc.Message) bool {
		n, ok := m.(*jsonrpc.Notification)
		return ok && n.Method == "notifications/cancelled"
	}).(*jsonrpc.Notification)
	var cp protocol.CancelledNotificationParams
	if err := json.Unmarshal(cancelled.Params, &cp); err != nil || cp.RequestID != call.ID {
		t.Errorf("cancelled %s, want requestId %s", cancelled.Params, call.ID)
	}
	p.result(call.ID, `{}`) // late: dropped quietly
	if _, _, err := sess.Call(bounded(t), "x/after", nil); err != nil {
		t.Fatal(err)
	}
	if problems := sess.Problems(); len(problems) != 0 {
		t.Errorf("problems %v, want none for a late answer", problems)
	}
}

// The end of the connection fails the calls waiting, promptly.
func TestCallDisconnect(t *testing.T) {
	sess, p := connect(t, modern(func(p *peer, _ jsonrpc.Message) { p.hangUp() }), Options{})
	done := make(chan error, 1)
	go func() {
		_, _, err := sess.Call(bounded(t), "tools/call", nil)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrDisconnected) {
			t.Fatalf("Call = %v, want ErrDisconnected", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Call still waiting after the server hung up")
	}
	if _, _, err := sess.Call(bounded(t), "tools/list", nil); !errors.Is(err, ErrDisconnected) {
		t.Errorf("Call after the end = %v, want ErrDisconnected", err)
	}
	_ = p
	sess.Close()
	if _, _, err := sess.Call(bounded(t), "tools/list", nil); !errors.Is(err, ErrDisconnected) && !errors.Is(err, ErrClosed) {
		t.Errorf("Call after Close = %v", err)
	}
}

// Garbage on the wire is recorded, never answered, and the session goes
// on; an invalid response to a call fails that call.
func TestGarbage(t *testing.T) {
	lines := []string{
		"not json at all",
		`{"jsonrpc":"2.0","id":999,"result":{}}`,
		`[{"jsonrpc":"2.0","method":"x"}]`,
		`{"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{}}`,
		`{"jsonrpc":"1.0","method":"x"}`,
		`{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"}}`,
		"\x00\xff\xfe",
		`{"jsonrpc":"2.0","id":1e400,"result":{}}`,
	}
	sess, p := connect(t, modern(func(p *peer, m jsonrpc.Message) {
		r := m.(*jsonrpc.Request)
		for _, l := range lines {
			p.write(l)
		}
		if r.Method == "bad/answer" {
			p.write(`{"jsonrpc":"2.0","id":` + r.ID.Raw() + `,"result":{},"error":{"code":1,"message":"x"}}`)
			return
		}
		p.result(r.ID, `{"ok":true}`)
	}), Options{})
	result, rpcErr, err := sess.Call(bounded(t), "x/ok", nil)
	if err != nil || rpcErr != nil || string(result) != `{"ok":true}` {
		t.Fatalf("Call = %s %v %v", result, rpcErr, err)
	}
	problems := sess.Problems()
	for _, pr := range problems {
		t.Log(pr)
	}
	if len(problems) != len(lines) {
		t.Errorf("%d problems, want %d:\n%v", len(problems), len(lines), problems)
	}
	if _, _, err := sess.Call(bounded(t), "bad/answer", nil); !errors.Is(err, ErrBadAnswer) {
		t.Errorf("Call with an invalid response = %v, want ErrBadAnswer", err)
	}
	for _, m := range p.sent() {
		if _, ok := m.(*jsonrpc.Response); ok {
			t.Errorf("the client answered garbage: %v", m)
		}
	}
	if !strings.Contains(problems[0].Error(), "invalid message") {
		t.Errorf("problem %q", problems[0])
	}
}
