package mcp_test

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// stuckWriter is a peer that never reads: every Write blocks until the
// test ends.
type stuckWriter struct{ release chan struct{} }

func (w stuckWriter) Write(b []byte) (int, error) {
	<-w.release
	return 0, os.ErrClosed
}

// A peer that stops reading cannot make the server unstoppable: with the
// output queue full and the read loop blocked answering a ping, cancelling
// the context or ending the input (with unread lines still in the pipe)
// makes Serve return nil within the flush timeout; a handler blocked
// sending progress does not hold shutdown up either.
func TestStalledPeerCannotWedgeShutdown(t *testing.T) {
	for _, stop := range []string{"context", "eof"} {
		t.Run(stop, func(t *testing.T) {
			release := make(chan struct{})
			defer close(release)
			progress := rawTool("spam", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
				for i := 1; ctx.Err() == nil; i++ {
					if mcp.ReportProgress(ctx, float64(i), 0, "") != nil {
						break
					}
				}
				return tool.TextResult("stopped"), nil
			})
			srv := newServer(t, &mcp.Options{ShutdownGrace: 100 * time.Millisecond}, progress)
			inR, inW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer inR.Close()
			conn := transport.NewStream(inR, stuckWriter{release}, transport.Options{
				MaxQueuedBytes: 4096, FlushTimeout: 200 * time.Millisecond,
			})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- srv.Serve(ctx, conn) }()

			fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}`)
			fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":"p","method":"tools/call","params":{"name":"spam","_meta":{"progressToken":1}}}`)
			// Pings until the pipe is full: the server stopped reading.
			wrote := make(chan struct{})
			go func() {
				defer close(wrote)
				for i := 0; ; i++ {
					if _, err := fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i); err != nil {
						return
					}
				}
			}()
			waitStalled(t, inW)
			start := time.Now()
			if stop == "context" {
				cancel()
			} else {
				inW.Close()
			}
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("Serve returned %v, want nil", err)
				}
			case <-time.After(5 * time.Second):
				pprof.Lookup("goroutine").WriteTo(os.Stderr, 1)
				t.Fatal("Serve did not return: the stalled peer wedged the server")
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("shutdown took %v, want under 2s", d)
			}
			inW.Close()
			<-wrote
		})
	}
}

// waitStalled waits until writes to w no longer go through: the pipe is
// full because the server stopped reading it.
func waitStalled(t *testing.T, w *os.File) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		w.SetWriteDeadline(time.Now().Add(200 * time.Millisecond))
		_, err := w.Write([]byte(" "))
		if err != nil && os.IsTimeout(err) {
			w.SetWriteDeadline(time.Time{})
			return
		}
	}
	t.Fatal("the server kept reading: the test did not reach the stalled state")
}

// The bytes held by requests waiting for a handler are bounded: past
// MaxQueuedBytes a request is refused as overloaded at once, while one
// request of any size may always wait.
func TestMaxQueuedBytes(t *testing.T) {
	gate := make(chan struct{})
	hold := rawTool("hold", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		select {
		case <-gate:
		case <-ctx.Done():
		}
		return tool.TextResult("released"), nil
	})
	srv := newServer(t, &mcp.Options{MaxConcurrentCalls: 1, MaxQueuedBytes: 1000}, hold)
	c := start(t, srv)
	c.initialize("2025-11-25")
	call := func(id int64, pad int) {
		params := fmt.Sprintf(`{"name":"hold","arguments":{"pad":%q}}`, strings.Repeat("x", pad))
		c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: "tools/call", Params: json.RawMessage(params)})
	}
	call(1, 10) // runs, holding the one handler slot
	time.Sleep(50 * time.Millisecond)
	call(2, 5000) // waits alone: larger than the limit, still admitted
	call(3, 10)   // would pass the limit
	r := c.await(jsonrpc.Int64ID(3))
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInternalError || !strings.Contains(r.Error.Message, "overloaded") {
		t.Fatalf("third call: got %+v, want -32603 overloaded", r)
	}
	if !strings.Contains(string(r.Error.Data), `"overloaded"`) {
		t.Errorf("data = %s, want reason overloaded", r.Error.Data)
	}
	close(gate)
	for _, id := range []int64{1, 2} {
		if r := c.await(jsonrpc.Int64ID(id)); r.Error != nil {
			t.Errorf("call %d: %v", id, r.Error)
		}
	}
	// Once the queue drained, requests are admitted again.
	call(4, 10)
	if r := c.await(jsonrpc.Int64ID(4)); r.Error != nil {
		t.Errorf("call after draining: %v", r.Error)
	}
}

// Open listen streams per connection are bounded; one more is refused
// with a clear error (the observer told it was MaxListenStreams), and
// cancelling one makes room.
func TestMaxListenStreams(t *testing.T) {
	rec := newRecorder()
	srv := newServer(t, &mcp.Options{MaxListenStreams: 2, Observer: rec})
	c := start(t, srv)
	listen := func(id int64) {
		p, _ := json.Marshal(map[string]any{"_meta": modernMeta(nil), "notifications": map[string]any{"toolsListChanged": true}})
		c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: "subscriptions/listen", Params: p})
	}
	ack := func() {
		t.Helper()
		n, ok := c.next(5 * time.Second).(*jsonrpc.Notification)
		if !ok || n.Method != "notifications/subscriptions/acknowledged" {
			t.Fatalf("got %v, want an acknowledgement", n)
		}
	}
	listen(1)
	ack()
	listen(2)
	ack()
	listen(3)
	r := c.await(jsonrpc.Int64ID(3))
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInternalError || !strings.Contains(r.Error.Message, "2 subscriptions/listen streams are already open") {
		t.Fatalf("third listen: got %+v, want -32603 naming the limit", r)
	}
	if o := rec.next(t); o.end.Outcome != mcp.OutcomeOverloaded { // the response goes out before the observer hears
		t.Errorf("the third listen ended %v, want overloaded", o.end.Outcome)
	}
	rec.mu.Lock()
	want := mcp.Overload{Limit: "MaxListenStreams", Method: "subscriptions/listen", Transport: mcp.TransportStream}
	if len(rec.overloads) != 1 || rec.overloads[0] != want {
		t.Errorf("overloads %+v, want one of %+v", rec.overloads, want)
	}
	rec.mu.Unlock()
	c.send(&jsonrpc.Notification{Method: "notifications/cancelled", Params: json.RawMessage(`{"requestId":1}`)})
	time.Sleep(50 * time.Millisecond)
	listen(4)
	ack()
}

// A params._meta that is not an object is -32602 for every method; null is
// taken as absent.
func TestMetaMustBeAnObject(t *testing.T) {
	srv := newServer(t, nil, rawTool("noop", func(context.Context, json.RawMessage) (*tool.Result, error) {
		return tool.TextResult("ran"), nil
	}))
	c := start(t, srv)
	c.initialize("2025-11-25")
	id := int64(0)
	for _, method := range []string{"ping", "tools/list", "tools/call", "server/discover", "subscriptions/listen", "logging/setLevel"} {
		for _, meta := range []string{`[]`, `"forge.permission_patterns"`, `1`, `true`} {
			id++
			params := fmt.Sprintf(`{"name":"noop","level":"info","_meta":%s}`, meta)
			c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: method, Params: json.RawMessage(params)})
			r := c.await(jsonrpc.Int64ID(id))
			if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(r.Error.Message, `"_meta" must be an object`) {
				t.Errorf("%s with _meta %s: got %+v, want -32602", method, meta, r)
			}
		}
	}
	id++
	c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: "tools/call", Params: json.RawMessage(`{"name":"noop","_meta":null}`)})
	if r := c.await(jsonrpc.Int64ID(id)); r.Error != nil {
		t.Errorf("_meta null: %v, want it taken as absent", r.Error)
	}
}

// Input quoted in an error message is clipped, whatever its size.
func TestErrorsClipInput(t *testing.T) {
	srv := newServer(t, nil)
	c := start(t, srv)
	c.initialize("2025-11-25")
	huge := strings.Repeat("z", 1<<20)
	modern, _ := json.Marshal(modernMeta(nil))
	badVersion, _ := json.Marshal(map[string]any{"_meta": map[string]any{
		protocol.MetaProtocolVersion: huge, protocol.MetaClientCapabilities: map[string]any{},
	}})
	badLevel, _ := json.Marshal(map[string]any{"_meta": modernMeta(map[string]any{protocol.MetaLogLevel: huge})})
	tests := []struct {
		name, method, params string
	}{
		{"unknown tool", "tools/call", `{"name":"` + huge + `"}`},
		{"unknown method", huge, `{}`},
		{"unknown modern method", huge, `{"_meta":` + string(modern) + `}`},
		{"setLevel", "logging/setLevel", `{"level":"` + huge + `"}`},
		{"modern log level", "tools/list", string(badLevel)},
		{"unsupported version", "tools/list", string(badVersion)},
	}
	for i, tt := range tests {
		id := jsonrpc.Int64ID(int64(i + 1))
		c.send(&jsonrpc.Request{ID: id, Method: tt.method, Params: json.RawMessage(tt.params)})
		r := c.await(id)
		if r.Error == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		if n := len(r.Error.Message) + len(r.Error.Data); n > 1024 {
			t.Errorf("%s: error is %d bytes, want the input clipped: %.200s", tt.name, n, r.Error.Message)
		}
		if !strings.Contains(r.Error.Message+string(r.Error.Data), "(1048576 bytes)") {
			t.Errorf("%s: error does not give the original length: %.300s %.300s", tt.name, r.Error.Message, r.Error.Data)
		}
	}
}
