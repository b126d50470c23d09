package httpconn_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/internal/peer/httpconn"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// Every era against mcphttp: the handshake, a tools/call whose arguments
// the 2026-07-28 headers must mirror (mcphttp refuses a mismatch with
// -32020), progress on an SSE stream, an elicitation (a server request on
// the POST's stream in a legacy session, input_required in 2026-07-28), a
// legacy stream the server closes early and the client resumes, and the
// session's DELETE on Close.
func TestEras(t *testing.T) {
	for _, c := range []struct {
		era  protocol.Era
		want protocol.Era
	}{{client.Auto, protocol.Modern}, {protocol.Legacy, protocol.Legacy}, {protocol.Modern, protocol.Modern}} {
		t.Run(c.era.String(), func(t *testing.T) {
			s := serve(t)
			var progress atomic.Int32
			opts := reviewer(c.era)
			opts.OnNotification = func(n *jsonrpc.Notification) {
				if n.Method == protocol.NotificationProgress {
					progress.Add(1)
				}
			}
			sess, conn, err := dial(t, s.url, opts, httpconn.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if sess.Era() != c.want || (c.want == protocol.Legacy) != (conn.SessionID() != "") {
				t.Fatalf("era %v, session id %q", sess.Era(), conn.SessionID())
			}
			ctx := bounded(t)
			if _, err := sess.ListPages(ctx, protocol.MethodListTools); err != nil {
				t.Fatal(err)
			}
			args := map[string]any{"region": "Hello, 世界", "count": 42, "flag": true, "location": map[string]any{"zone": " padded "}}
			res, rpcErr, err := sess.Call(ctx, protocol.MethodCallTool, map[string]any{"name": "echo", "arguments": args})
			if err != nil || rpcErr != nil || !strings.Contains(string(res), `世界`) {
				t.Fatalf("echo: %s, %v, %v", res, rpcErr, err)
			}
			res, rpcErr, err = sess.Call(ctx, protocol.MethodCallTool, map[string]any{"name": "steps", "arguments": map[string]any{},
				"_meta": map[string]any{"progressToken": "p1"}})
			if err != nil || rpcErr != nil || !strings.Contains(string(res), "done") || progress.Load() != 3 {
				t.Fatalf("steps: %s, %v, %v, %d progress notifications", res, rpcErr, err, progress.Load())
			}
			res, rpcErr, err = sess.Call(ctx, protocol.MethodCallTool, map[string]any{"name": "survey", "arguments": map[string]any{}})
			if err != nil || rpcErr != nil || !strings.Contains(string(res), "accept") {
				t.Fatalf("survey: %s, %v, %v", res, rpcErr, err)
			}
			want := "direct"
			if c.want == protocol.Legacy {
				want = "resumed"
			}
			res, rpcErr, err = sess.Call(ctx, protocol.MethodCallTool, map[string]any{"name": "poll", "arguments": map[string]any{}})
			if err != nil || rpcErr != nil || !strings.Contains(string(res), want) {
				t.Fatalf("poll: %s, %v, %v; want %q", res, rpcErr, err, want)
			}
			if p := append(sess.Problems(), errs(conn.Problems())...); len(p) > 0 {
				t.Errorf("problems: %v", p)
			}
			sid := conn.SessionID()
			if err := sess.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
			if c.want == protocol.Legacy {
				checkDeleted(t, s, sid)
			}
		})
	}
}

// errs makes strings errors.
func errs(ss []string) []error {
	var out []error
	for _, s := range ss {
		out = append(out, errors.New(s))
	}
	return out
}

// checkDeleted: Close sent DELETE with the session's id, which the
// server no longer knows.
func checkDeleted(t *testing.T, s *served, sid string) {
	t.Helper()
	var deleted bool
	for _, ex := range s.requests() {
		deleted = deleted || (ex.method == http.MethodDelete && ex.header.Get("Mcp-Session-Id") == sid)
	}
	req, _ := http.NewRequest(http.MethodGet, s.url, nil)
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := s.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if !deleted || resp.StatusCode != http.StatusNotFound {
		t.Errorf("DELETE sent %v; the session's GET after Close got %d, want 404", deleted, resp.StatusCode)
	}
}

// The headers of each era, as the server got them: a 2026-07-28 request
// mirrors its body; a legacy initialize carries no session or version,
// and every request after it both; the legacy GET stream was opened.
func TestHeaders(t *testing.T) {
	t.Run("modern", func(t *testing.T) {
		s := serve(t)
		sess, _, err := dial(t, s.url, reviewer(protocol.Modern), httpconn.Options{Header: http.Header{"Authorization": {"Bearer x"}}})
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		ctx := bounded(t)
		sess.ListPages(ctx, protocol.MethodListTools)
		_, rpcErr, err := sess.Call(ctx, protocol.MethodCallTool, map[string]any{"name": "echo",
			"arguments": json.RawMessage(`{"region":"=?base64?x?=","count":4.0e1,"flag":false,"location":{"zone":null}}`)})
		if err != nil || rpcErr != nil {
			t.Fatalf("echo: %v, %v", rpcErr, err)
		}
		hd := s.posted(protocol.MethodCallTool)
		want := map[string]string{
			"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "echo",
			"Mcp-Param-Region": "=?base64?PT9iYXNlNjQ/eD89?=", "Mcp-Param-Count": "40", "Mcp-Param-Flag": "false", "Mcp-Param-Zone": "",
			"Accept": "application/json, text/event-stream", "Content-Type": "application/json", "Authorization": "Bearer x", "Mcp-Session-Id": "",
		}
		for k, v := range want {
			if got := hd.Values(k); (v == "" && got != nil) || (v != "" && (len(got) != 1 || got[0] != v)) {
				t.Errorf("%s: %q, want %q", k, got, v)
			}
		}
		if d := s.posted(protocol.MethodDiscover); d.Get("Mcp-Method") != "server/discover" || d.Get("Mcp-Name") != "" {
			t.Errorf("server/discover headers %v", d)
		}
		// mcphttp checks Mcp-Name before it looks for the prompt or the
		// resource: anything but -32020 says the header matched.
		for _, c := range []struct{ method, key, value, header string }{
			{protocol.MethodGetPrompt, "name", "no such prompt", "no such prompt"},
			{protocol.MethodReadResource, "uri", "file:///café", "=?base64?ZmlsZTovLy9jYWbDqQ==?="},
		} {
			_, rpcErr, err := sess.Call(ctx, c.method, map[string]any{c.key: c.value})
			if err != nil || rpcErr == nil || rpcErr.Code == jsonrpc.CodeHeaderMismatch {
				t.Errorf("%s: %v, %v", c.method, rpcErr, err)
			}
			if hd := s.posted(c.method); hd.Get("Mcp-Name") != c.header || hd.Get("Mcp-Method") != c.method {
				t.Errorf("%s headers %v", c.method, hd)
			}
		}
	})
	t.Run("legacy", func(t *testing.T) {
		s := serve(t)
		sess, conn, err := dial(t, s.url, reviewer(protocol.Legacy), httpconn.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sess.ListPages(bounded(t), protocol.MethodListTools)
		init, list := s.posted(protocol.MethodInitialize), s.posted(protocol.MethodListTools)
		if init.Get("Mcp-Session-Id") != "" || init.Get("Mcp-Protocol-Version") != "" || init.Get("Mcp-Method") != "" {
			t.Errorf("initialize headers %v", init)
		}
		if list.Get("Mcp-Session-Id") != conn.SessionID() || list.Get("Mcp-Protocol-Version") != "2025-11-25" || list.Get("Mcp-Method") != "" {
			t.Errorf("tools/list headers %v", list)
		}
		// The GET stream opens beside the calls, once the session exists:
		// give it a moment before the session closes.
		var get bool
		for deadline := time.Now().Add(2 * time.Second); !get && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			for _, ex := range s.requests() {
				get = get || (ex.method == http.MethodGet && ex.header.Get("Mcp-Session-Id") == conn.SessionID() && ex.header.Get("Last-Event-ID") == "")
			}
		}
		sess.Close()
		if !get {
			t.Error("no GET stream was opened")
		}
	})
}

// The Mcp-Param headers come from the tools/list result: a call made
// before the list goes without them, which mcphttp refuses (-32020).
func TestParamsNeedTheList(t *testing.T) {
	s := serve(t)
	sess, _, err := dial(t, s.url, reviewer(protocol.Modern), httpconn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	_, rpcErr, err := sess.Call(bounded(t), protocol.MethodCallTool, map[string]any{"name": "echo", "arguments": map[string]any{"region": "eu"}})
	if err != nil || rpcErr == nil || rpcErr.Code != jsonrpc.CodeHeaderMismatch {
		t.Fatalf("rpc error %v, error %v; want -32020", rpcErr, err)
	}
}

// A call the client gives up on ends on the server too: in 2026-07-28 by
// the stream's closing alone (no notifications/cancelled is POSTed), in a
// legacy session by notifications/cancelled.
func TestCancel(t *testing.T) {
	for _, era := range []protocol.Era{protocol.Modern, protocol.Legacy} {
		t.Run(era.String(), func(t *testing.T) {
			s := serve(t)
			sess, _, err := dial(t, s.url, reviewer(era), httpconn.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			ctx, cancel := context.WithCancel(bounded(t))
			go func() { <-s.started; cancel() }()
			_, _, err = sess.Call(ctx, protocol.MethodCallTool, map[string]any{"name": "slow", "arguments": map[string]any{}})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("call: %v", err)
			}
			select {
			case <-s.stopped:
			case <-time.After(5 * time.Second):
				t.Fatal("the server's call was not cancelled")
			}
			posted := s.posted(protocol.NotificationCancelled) != nil
			if posted != (era == protocol.Legacy) {
				t.Errorf("notifications/cancelled POSTed: %v", posted)
			}
		})
	}
}

// Close ends a call in flight at once, whatever the era; the server's
// call ends with it, and no goroutine is left (serve checks).
func TestCloseInFlight(t *testing.T) {
	for _, era := range []protocol.Era{protocol.Modern, protocol.Legacy} {
		t.Run(era.String(), func(t *testing.T) {
			s := serve(t)
			sess, _, err := dial(t, s.url, reviewer(era), httpconn.Options{})
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				_, _, err := sess.Call(bounded(t), protocol.MethodCallTool, map[string]any{"name": "slow", "arguments": map[string]any{}})
				done <- err
			}()
			<-s.started
			start := time.Now()
			sess.Close()
			if err := <-done; !errors.Is(err, client.ErrClosed) || time.Since(start) > 3*time.Second {
				t.Fatalf("call: %v after %v", err, time.Since(start))
			}
			select {
			case <-s.stopped:
			case <-time.After(5 * time.Second):
				t.Fatal("the server's call did not end")
			}
		})
	}
}

// A legacy session's GET stream carries the server's own messages: a
// tool added after the handshake is announced on it.
func TestGETStream(t *testing.T) {
	s := serve(t)
	changed := make(chan struct{}, 4)
	opts := reviewer(protocol.Legacy)
	opts.OnNotification = func(n *jsonrpc.Notification) {
		if n.Method == protocol.NotificationToolListChanged {
			changed <- struct{}{}
		}
	}
	sess, _, err := dial(t, s.url, opts, httpconn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	deadline := time.Now().Add(5 * time.Second)
	for !streaming(s) {
		if time.Now().After(deadline) {
			t.Fatal("no GET stream")
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // the stream is being set up
	s.srv.MustAddTool(toolNamed("late"))
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("no notifications/tools/list_changed")
	}
}

// streaming reports whether the server got the session's GET.
func streaming(s *served) bool {
	for _, ex := range s.requests() {
		if ex.method == http.MethodGet {
			return true
		}
	}
	return false
}

// toolNamed is a tool that answers "ok".
func toolNamed(name string) tool.Tool {
	return tool.New(name, "Answers ok.", func(context.Context, struct{}) (string, error) { return "ok", nil })
}
