package main

import (
	"context"
	"time"

	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/tool"
)

// reconnectionTool is test_reconnection, of the conformance scenario
// server-sse-polling (SEP-1699), registered by serveHTTP (it is served over
// HTTP only): in a 2025-11-25 session it closes its SSE stream mid-call
// (mcphttp.CloseStream: a priming event and the retry hint, then the
// connection ends), waits 100 ms, and answers; the result reaches the
// client on the GET with Last-Event-ID it reconnects with. For an older
// session, a 2026-07-28 request or a POST that does not accept
// text/event-stream it just answers.
func reconnectionTool() tool.Tool {
	return tool.New("test_reconnection",
		"Tests SSE stream disconnection and client reconnection (SEP-1699). Server will close the stream mid-call and send the result after client reconnects.",
		func(ctx context.Context, _ struct{}) (*tool.Result, error) {
			if mcphttp.CloseStream(ctx) {
				if err := sleep(ctx, 100*time.Millisecond); err != nil {
					return nil, err
				}
			}
			return tool.TextResult("Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure."), nil
		})
}
