package tool

import (
	"context"
	"log/slog"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/callctx"
)

// call is the server's side of the call in progress. The mcp package puts
// one in every handler's context (see package internal/callctx); handlers
// reach it through RequestFrom, ReportProgress and Logger.
type call interface {
	// Request describes the request the call serves.
	Request() *RequestInfo
	// Meta returns the request's params._meta, raw (nil if absent),
	// without building the whole RequestInfo.
	Meta() json.RawMessage
	// Progress reports how far the call has come. progress must increase
	// from one report to the next; total is 0 when unknown. It does
	// nothing when the request carried no progress token.
	Progress(progress, total float64, message string) error
	// LogEnabled reports whether the client asked for messages at level.
	LogEnabled(level slog.Level) bool
	// Log sends one notifications/message to the client, if it asked for
	// that level; logger names the source and data is any JSON value.
	Log(level slog.Level, logger string, data any) error
	// ServerLogger is the server's own log (stderr unless configured
	// otherwise), which every record of Logger also goes to.
	ServerLogger() *slog.Logger
}

// callFrom returns the call in progress, or nil outside a call.
func callFrom(ctx context.Context) call {
	c, _ := callctx.From(ctx).(call)
	return c
}

// ReportProgress reports progress for the current call. It does nothing and
// returns nil when the client did not ask for progress.
func ReportProgress(ctx context.Context, progress, total float64, message string) error {
	c := callFrom(ctx)
	if c == nil {
		return nil
	}
	return c.Progress(progress, total, message)
}
