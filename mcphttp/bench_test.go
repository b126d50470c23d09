package mcphttp_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
}
