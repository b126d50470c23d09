package tool

import (
	"context"
	"log/slog"

	json "github.com/goccy/go-json"
)

// Call is the server's side of the call in progress. The mcp package puts
// one in every handler's context; handlers use it through ReportProgress
// and Logger rather than directly.
type Call interface {
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

type callKey struct{}

// WithCall returns a context carrying c.
func WithCall(ctx context.Context, c Call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

// CallFrom returns the call in progress, or nil outside a call.
func CallFrom(ctx context.Context) Call {
	c, _ := ctx.Value(callKey{}).(Call)
	return c
}

// ReportProgress reports progress for the current call. It does nothing and
// returns nil when the client did not ask for progress.
func ReportProgress(ctx context.Context, progress, total float64, message string) error {
	c := CallFrom(ctx)
	if c == nil {
		return nil
	}
	return c.Progress(progress, total, message)
}
