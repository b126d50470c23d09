package httpconn_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/internal/peer/httpconn"
	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// echoSchema annotates region, count, flag and location.zone with
// x-mcp-header: a 2026-07-28 call must mirror each in an Mcp-Param header.
const echoSchema = `{"type":"object","properties":{` +
	`"region":{"type":"string","x-mcp-header":"Region"},` +
	`"count":{"type":"integer","x-mcp-header":"Count"},` +
	`"flag":{"type":"boolean","x-mcp-header":"Flag"},` +
	`"location":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}}}}`

// served is an mcp.Server behind mcphttp on a loopback server, and what
// its slow tool saw.
type served struct {
	srv     *mcp.Server
	h       *mcphttp.Handler
	ts      *httptest.Server
	url     string
	started chan struct{} // the slow tool started
	stopped chan error    // the slow tool's context ended, with its cause

	mu   sync.Mutex
	seen []exchange // every HTTP request, in order
}

// exchange is one HTTP request the server got.
type exchange struct {
	method string      // the HTTP method
	rpc    string      // the JSON-RPC method of a POST, "" for a response
	header http.Header // the request's headers
}

// serve starts the test server and checks at the end that the test left
// no goroutine behind.
func serve(t *testing.T) *served {
	t.Helper()
	before := leakcheck.Snapshot()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	s := &served{started: make(chan struct{}, 8), stopped: make(chan error, 8)}
	s.srv = mcp.NewServer(mcp.Implementation{Name: "served", Version: "1"},
		&mcp.Options{Logger: quiet, ShutdownGrace: 100 * time.Millisecond, DynamicTools: true})
	s.srv.MustAddTool(tool.Tool{Name: "echo", Description: "Echoes.", InputSchema: json.RawMessage(echoSchema),
		Handler: func(_ context.Context, in json.RawMessage) (*tool.Result, error) {
			return tool.TextResult(string(in)), nil
		}})
	s.srv.MustAddTool(tool.New("steps", "Reports progress.", func(ctx context.Context, _ struct{}) (string, error) {
		for i := range 3 {
			mcp.ReportProgress(ctx, float64(i+1), 3, "")
		}
		return "done", nil
	}))
	s.srv.MustAddTool(tool.New("slow", "Waits to be cancelled.", func(ctx context.Context, _ struct{}) (string, error) {
		s.started <- struct{}{}
		<-ctx.Done()
		s.stopped <- context.Cause(ctx)
		return "", ctx.Err()
	}))
	s.srv.MustAddTool(tool.New("survey", "Asks.", func(ctx context.Context, _ struct{}) (string, error) {
		reply, err := ask.Elicit(ctx, "ok?", protocol.RequestedSchema{
			Properties: map[string]protocol.PrimitiveSchemaDefinition{"ok": {Boolean: &protocol.BooleanSchema{}}}}, ask.Key("ok"))
		if err != nil {
			return "", err
		}
		return string(reply.Action), nil
	}))
	s.srv.MustAddTool(tool.New("poll", "Closes its stream, then answers.", func(ctx context.Context, _ struct{}) (string, error) {
		closed := mcphttp.CloseStream(ctx)
		time.Sleep(20 * time.Millisecond)
		if closed {
			return "resumed", nil
		}
		return "direct", nil
	}))
	s.h = mcphttp.NewHandler(s.srv, &mcphttp.Options{Logger: quiet, RetryInterval: 20 * time.Millisecond})
	s.ts = httptest.NewServer(s.record(s.h))
	s.url = s.ts.URL + "/mcp"
	t.Cleanup(func() {
		s.h.Close()
		s.ts.Close()
		leakcheck.Check(t, before)
	})
	return s
}

// record notes each request before h serves it.
func (s *served) record(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ex := exchange{method: r.Method, header: r.Header.Clone()}
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			var m struct {
				Method string `json:"method"`
			}
			json.Unmarshal(body, &m)
			ex.rpc = m.Method
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		s.mu.Lock()
		s.seen = append(s.seen, ex)
		s.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// requests returns the requests the server got so far.
func (s *served) requests() []exchange {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]exchange(nil), s.seen...)
}

// posted returns the headers of the last POST of rpc, nil when none.
func (s *served) posted(rpc string) http.Header {
	var hd http.Header
	for _, ex := range s.requests() {
		if ex.method == http.MethodPost && ex.rpc == rpc {
			hd = ex.header
		}
	}
	return hd
}

// reviewer answers elicitations with accept and roots with none.
func reviewer(era protocol.Era) client.Options {
	return client.Options{Era: era, DiscoverTimeout: time.Second, Handlers: client.Handlers{
		Elicit: func(context.Context, *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
			return &protocol.ElicitResult{Action: protocol.ElicitAccept, Content: protocol.Object{"ok": json.RawMessage("true")}}, nil
		},
	}}
}

// dial connects a session to url in opts.Era over a new Conn.
func dial(t *testing.T, url string, opts client.Options, copts httpconn.Options) (*client.Session, *httpconn.Conn, error) {
	t.Helper()
	conn, err := httpconn.New(url, copts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sess, err := client.Connect(ctx, conn, opts)
	if err == nil {
		t.Cleanup(func() { sess.Close() }) // before serve's leak check
	}
	return sess, conn, err
}

// bounded is a context for one call.
func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// isDisconnected reports the error of a session whose connection ended.
func isDisconnected(err error) bool { return errors.Is(err, client.ErrDisconnected) }
