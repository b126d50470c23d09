package harness

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestTapClosedEarly checks how the tap tells a stream the client ended
// from one the server ended: mcp-go ends a 2026-07-28 listen stream by
// cancelling the request's context, which fails a waiting read before the
// body is closed, and that must count as the client's doing.
func TestTapClosedEarly(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\n")
		w.(http.Flusher).Flush()
		if r.URL.Query().Get("end") != "" {
			return
		}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)

	tests := []struct {
		name  string
		query string
		end   func(cancel context.CancelFunc, body io.ReadCloser)
		early bool
	}{
		{"context cancelled while a read waits", "", func(cancel context.CancelFunc, body io.ReadCloser) {
			go func() { time.Sleep(50 * time.Millisecond); cancel() }()
			io.ReadAll(body)
			body.Close()
		}, true},
		{"body closed", "", func(_ context.CancelFunc, body io.ReadCloser) { body.Close() }, true},
		{"server ended the stream", "?end=1", func(_ context.CancelFunc, body io.ReadCloser) {
			io.ReadAll(body)
			body.Close()
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w Wire
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+tt.query, nil)
			resp, err := HTTPClient(&w).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 64)
			if _, err := resp.Body.Read(buf); err != nil && err != io.EOF {
				t.Fatalf("first read: %v", err)
			}
			tt.end(cancel, resp.Body)
			ex := w.Exchanges()
			if len(ex) != 1 {
				t.Fatalf("%d exchanges, want 1", len(ex))
			}
			if got := !ex[0].ClosedEarly.IsZero(); got != tt.early {
				t.Errorf("ClosedEarly set = %v, want %v (%s)", got, tt.early, ex[0])
			}
		})
	}
}
