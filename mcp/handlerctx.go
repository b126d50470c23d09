package mcp

// What a handler asks of its own request, whatever it handles (a tool, a
// prompt, a resource read, a completion): RequestFrom, Logger and
// ReportProgress. They reach the call through its context
// (internal/callctx), so package tool and package ask, which package mcp
// imports, reach it the same way.

import (
	"context"
	"log/slog"

	"github.com/mcpwire/mcpwire/internal/callctx"
	"github.com/mcpwire/mcpwire/protocol"
)

// RequestFrom returns what the handler's request says (era, revision,
// client, caller), or nil outside a call.
func RequestFrom(ctx context.Context) *protocol.RequestInfo {
	if c := callctx.From(ctx); c != nil {
		return c.Request()
	}
	return nil
}

// ReportProgress sends a progress notification for the current request
// (the specification's "Progress" utility). It does nothing and returns
// nil when the client did not ask for progress (no progressToken).
func ReportProgress(ctx context.Context, progress, total float64, message string) error {
	c := callctx.From(ctx)
	if c == nil {
		return nil
	}
	return c.Progress(progress, total, message)
}

// Logger returns a logger for the current request. Each record goes to the
// server's own log (Options.Logger: by default slog.Default(), which
// writes to stderr) and, when the client asked for messages at its level,
// to the client as a notifications/message: in the legacy era the level
// comes from logging/setLevel, in the modern era from the request's own
// io.modelcontextprotocol/logLevel, and without it nothing is sent to the
// client. The server rate-limits what it forwards, so a chatty handler cannot
// flood the pipe (the specification's "Logging" utility). Outside a call the logger is slog.Default().
func Logger(ctx context.Context) *slog.Logger {
	c := callctx.From(ctx)
	if c == nil {
		return slog.Default()
	}
	next := slog.Default().Handler()
	if l := c.ServerLogger(); l != nil {
		next = l.Handler()
	}
	return slog.New(&clientLogHandler{call: c, next: next})
}

// clientLogHandler forwards records to the client and tees them to next.
type clientLogHandler struct {
	call   callctx.Call
	next   slog.Handler
	attrs  []slog.Attr
	groups []string
}

func (h *clientLogHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.call.LogEnabled(l) || h.next.Enabled(ctx, l)
}

func (h *clientLogHandler) Handle(ctx context.Context, r slog.Record) error {
	if h.next.Enabled(ctx, r.Level) {
		h.next.Handle(ctx, r.Clone())
	}
	if !h.call.LogEnabled(r.Level) {
		return nil
	}
	data := map[string]any{"message": r.Message}
	add := func(a slog.Attr) bool {
		data[a.Key] = a.Value.Resolve().Any()
		return true
	}
	for _, a := range h.attrs {
		add(a)
	}
	r.Attrs(add)
	logger := ""
	if len(h.groups) > 0 {
		logger = h.groups[0]
	}
	return h.call.Log(r.Level, logger, data)
}

func (h *clientLogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append(append([]slog.Attr{}, h.attrs...), attrs...)
	c.next = h.next.WithAttrs(attrs)
	return &c
}

func (h *clientLogHandler) WithGroup(name string) slog.Handler {
	c := *h
	c.groups = append(append([]string{}, h.groups...), name)
	c.next = h.next.WithGroup(name)
	return &c
}
