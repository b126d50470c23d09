// Package callctx carries the server's side of a call in progress through
// a handler's context, between package mcp, which puts it there, and the
// packages whose hooks read it: tool (RequestFrom, ReportProgress,
// Logger), ask (the questions to the client) and probe (the request's
// _meta). They all read it as one interface, Call, which mcp's call type
// is asserted to implement: renaming a method there fails to compile
// instead of turning a hook into a silent no-op. Neither side exports the
// plumbing.
package callctx

import (
	"context"
	"log/slog"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// Call is the server's side of the call in progress.
type Call interface {
	// Request describes the request the call serves.
	Request() *protocol.RequestInfo
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
	// otherwise), which every record of mcp.Logger also goes to.
	ServerLogger() *slog.Logger

	// AskClient returns the client's answer to the request method with
	// params, known by key: in the legacy era by sending it, in the
	// modern era from the answers the client gave, or
	// ask.ErrInputRequired once the question is recorded for this round's
	// input_required.
	AskClient(ctx context.Context, key, method string, params json.RawMessage) (json.RawMessage, error)
	// Remember keeps a value for the handler's next rounds.
	Remember(name string, value json.RawMessage)
	// Recall returns a value remembered in an earlier round (or earlier
	// in this run).
	Recall(name string) (json.RawMessage, bool)
	// TrackElicitation ties a legacy URL elicitation's id to the
	// connection, for mcp.Server.CompleteElicitation.
	TrackElicitation(id string)
}

// Key is the context key under which a context carries its call. A
// context type that is itself the call (mcp's, which spares every call
// the allocation of With) answers Value(Key{}) with itself.
type Key struct{}

// With returns a context carrying call.
func With(ctx context.Context, call Call) context.Context {
	return context.WithValue(ctx, Key{}, call)
}

// From returns the call ctx carries, or nil outside a call.
func From(ctx context.Context) Call {
	c, _ := ctx.Value(Key{}).(Call)
	return c
}

// ValidKey reports whether k may key a question to the client (1 to 64
// letters, digits, '_', '-' or '.'): the rule package ask enforces, which
// a relay checks before asking under a peer's key.
func ValidKey(k string) bool {
	if len(k) == 0 || len(k) > 64 {
		return false
	}
	for _, r := range k {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.':
		default:
			return false
		}
	}
	return true
}
