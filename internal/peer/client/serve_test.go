package client

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// In the legacy era the server's requests are answered by the handlers,
// with their ids echoed exactly, while the call that caused them waits.
func TestServerRequests(t *testing.T) {
	asks := []struct {
		line string
		id   string
		want string // the answer: a result, or "error CODE"
	}{
		{`{"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{"message":"ok?","requestedSchema":{"type":"object","properties":{}}}}`,
			`"s1"`, `{"action":"accept","content":{"ok":true}}`},
		{`{"jsonrpc":"2.0","id":9007199254740993,"method":"roots/list"}`, `9007199254740993`, `{"roots":[{"uri":"file:///src"}]}`},
		{`{"jsonrpc":"2.0","id":"\u0061","method":"ping"}`, `"\u0061"`, `{}`},
		{`{"jsonrpc":"2.0","id":-4,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}`, `-4`, "error -32601"},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`, `5`, "error -32601"},
		{`{"jsonrpc":"2.0","id":6,"method":"elicitation/create","params":{"mode":"telepathy"}}`, `6`, "error -32602"},
		{`{"jsonrpc":"2.0","id":7,"method":"elicitation/create"}`, `7`, "error -32602"},
	}
	var mu sync.Mutex
	answers := map[string]*jsonrpc.Response{}
	var callID jsonrpc.ID
	var notes []string
	sess, _ := connect(t, legacy(nil, func(p *peer, m jsonrpc.Message) {
		switch m := m.(type) {
		case *jsonrpc.Request:
			callID = m.ID
			for _, a := range asks {
				p.write(a.line)
			}
		case *jsonrpc.Response:
			mu.Lock()
			answers[m.ID.Raw()] = m
			done := len(answers) == len(asks)
			mu.Unlock()
			if done {
				p.write(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"done"}}`)
				p.result(callID, `{"content":[]}`)
			}
		}
	}), Options{Era: protocol.Legacy, Handlers: Handlers{Elicit: acceptAll, Roots: rootsAnswer},
		OnNotification: func(n *jsonrpc.Notification) { notes = append(notes, n.Method) }})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, _, err := sess.Call(ctx, "tools/call", json.RawMessage(`{"name":"x"}`)); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, a := range asks {
		r := answers[a.id]
		switch {
		case r == nil:
			t.Errorf("no answer to id %s", a.id)
		case r.Error != nil:
			if got := "error " + itoa(r.Error.Code); got != a.want {
				t.Errorf("id %s: %s (%s), want %s", a.id, got, r.Error.Message, a.want)
			}
		case !jsonEqual(t, r.Result, a.want):
			t.Errorf("id %s: result %s, want %s", a.id, r.Result, a.want)
		}
	}
	if len(notes) != 1 || notes[0] != "notifications/message" {
		t.Errorf("notifications %v", notes)
	}
	if problems := sess.Problems(); len(problems) != 0 {
		t.Errorf("problems %v", problems)
	}
}

// A request the server cancels stops its handler and gets no response;
// Close stops the others.
func TestServerRequestCancelled(t *testing.T) {
	started := make(chan string, 2)
	stopped := make(chan string, 2)
	var returned atomic.Int32 // handlers that returned
	block := func(ctx context.Context, p *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
		defer returned.Add(1)
		started <- p.Form.Message
		<-ctx.Done()
		stopped <- p.Form.Message
		time.Sleep(20 * time.Millisecond) // Close must wait for this
		return &protocol.ElicitResult{Action: protocol.ElicitCancel}, nil
	}
	ask := func(id, message string) string {
		return `{"jsonrpc":"2.0","id":"` + id + `","method":"elicitation/create","params":{"message":"` + message + `","requestedSchema":{"type":"object","properties":{}}}}`
	}
	sess, p := connect(t, legacy(nil, nil), Options{Era: protocol.Legacy, Handlers: Handlers{Elicit: block}})
	p.write(ask("s1", "one"))
	p.write(ask("s2", "two"))
	<-started
	<-started
	p.write(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s1"}}`)
	select {
	case m := <-stopped:
		if m != "one" {
			t.Fatalf("%s stopped, want one", m)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the cancelled handler was not stopped")
	}
	for returned.Load() < 1 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(10 * time.Millisecond) // had s1 been answered, it would be now
	p.write(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	p.waitFor(func(m jsonrpc.Message) bool { r, ok := m.(*jsonrpc.Response); return ok && r.ID.Raw() == `"after"` })
	sess.Close()
	if n := returned.Load(); n != 2 {
		t.Errorf("Close returned while %d handler(s) still ran", 2-n)
	}
	if m := <-stopped; m != "two" {
		t.Errorf("%s stopped at Close, want two", m)
	}
	for _, m := range p.sent() {
		if r, ok := m.(*jsonrpc.Response); ok && r.ID.Raw() == `"s1"` {
			t.Errorf("the cancelled request was answered: %+v", r)
		}
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// The end of the connection stops the handlers still answering, before
// Close.
func TestServerRequestDisconnect(t *testing.T) {
	stopped := make(chan struct{})
	block := func(ctx context.Context, _ *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
		<-ctx.Done()
		close(stopped)
		return nil, ctx.Err()
	}
	_, p := connect(t, legacy(nil, nil), Options{Era: protocol.Legacy, Handlers: Handlers{Elicit: block}})
	p.write(`{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}}`)
	p.hangUp()
	select {
	case <-stopped:
	case <-time.After(2 * time.Second):
		t.Fatal("the handler still runs after the server hung up")
	}
}
