package mcphttp_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/tool"
)

// The request the benchmarks send: a 2026-07-28 tools/call of echo.
const echoBody = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`

var echoHeaders = http.Header{
	"Content-Type":         {"application/json"},
	"Accept":               {"application/json, text/event-stream"},
	"Mcp-Protocol-Version": {"2026-07-28"},
	"Mcp-Method":           {"tools/call"},
	"Mcp-Name":             {"echo"},
}

// echoHandler is a Handler serving one echo tool, closed when b ends.
func echoHandler(b *testing.B) *mcphttp.Handler {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := mcp.NewServer(mcp.Implementation{Name: "bench", Version: "1"}, &mcp.Options{Logger: quiet})
	srv.MustAddTool(tool.New("echo", "Echoes its text.", func(_ context.Context, in struct {
		Text string `json:"text"`
	}) (*tool.Result, error) {
		return tool.TextResult(in.Text), nil
	}))
	h := mcphttp.NewHandler(srv, &mcphttp.Options{Logger: quiet})
	b.Cleanup(h.Close)
	return h
}

// BenchmarkModernEcho serves one 2026-07-28 tools/call of an echo tool per
// iteration through the Handler, without a network: the cost of mcphttp
// and mcp on the request path, which net/http's own adds to.
func BenchmarkModernEcho(b *testing.B) {
	h := echoHandler(b)
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(echoBody))
		req.Header = echoHeaders
		w := &deadlineRecorder{httptest.NewRecorder()}
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
}

// deadlineRecorder is a ResponseRecorder with the deadline and flush
// methods net/http's own writer has, so that a benchmark takes the path a
// real connection does (a bare recorder makes every deadline an error).
type deadlineRecorder struct{ *httptest.ResponseRecorder }

func (deadlineRecorder) SetReadDeadline(time.Time) error  { return nil }
func (deadlineRecorder) SetWriteDeadline(time.Time) error { return nil }
func (d deadlineRecorder) FlushError() error              { d.Flush(); return nil }

// BenchmarkModernEchoLoopback is BenchmarkModernEcho over a real loopback
// connection, one call at a time on a kept-alive connection: net/http's
// own costs, deadlines and system calls included.
func BenchmarkModernEchoLoopback(b *testing.B) {
	ts := httptest.NewServer(echoHandler(b))
	defer ts.Close()
	client := ts.Client()
	b.ReportAllocs()
	for b.Loop() {
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(echoBody))
		req.Header = echoHeaders
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("%d", resp.StatusCode)
		}
	}
}
