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

// BenchmarkModernEcho serves one 2026-07-28 tools/call of an echo tool per
// iteration through the Handler, without a network: the cost of mcphttp
// and mcp on the request path, which net/http's own adds to.
func BenchmarkModernEcho(b *testing.B) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := mcp.NewServer(mcp.Implementation{Name: "bench", Version: "1"}, &mcp.Options{Logger: quiet})
	srv.MustAddTool(tool.New("echo", "Echoes its text.", func(_ context.Context, in struct {
		Text string `json:"text"`
	}) (*tool.Result, error) {
		return tool.TextResult(in.Text), nil
	}))
	h := mcphttp.NewHandler(srv, &mcphttp.Options{Logger: quiet})
	defer h.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	hd := http.Header{
		"Content-Type":         {"application/json"},
		"Accept":               {"application/json, text/event-stream"},
		"Mcp-Protocol-Version": {"2026-07-28"},
		"Mcp-Method":           {"tools/call"},
		"Mcp-Name":             {"echo"},
	}
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
		req.Header = hd
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
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := mcp.NewServer(mcp.Implementation{Name: "bench", Version: "1"}, &mcp.Options{Logger: quiet})
	srv.MustAddTool(tool.New("echo", "Echoes its text.", func(_ context.Context, in struct {
		Text string `json:"text"`
	}) (*tool.Result, error) {
		return tool.TextResult(in.Text), nil
	}))
	h := mcphttp.NewHandler(srv, &mcphttp.Options{Logger: quiet})
	defer h.Close()
	ts := httptest.NewServer(h)
	defer ts.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	hd := http.Header{
		"Content-Type":         {"application/json"},
		"Accept":               {"application/json, text/event-stream"},
		"Mcp-Protocol-Version": {"2026-07-28"},
		"Mcp-Method":           {"tools/call"},
		"Mcp-Name":             {"echo"},
	}
	client := ts.Client()
	b.ReportAllocs()
	for b.Loop() {
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
		req.Header = hd
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
