// Package calltest gives tests a handler context as the mcp server builds
// it, without a server: a call that knows its request and nothing else
// (no progress token, no client log level, no server log, no client to
// ask).
package calltest

import (
	"context"
	"errors"
	"log/slog"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/callctx"
	"github.com/mcpwire/mcpwire/protocol"
)

// Context returns ctx carrying a call whose request is info.
func Context(ctx context.Context, info *protocol.RequestInfo) context.Context {
	return callctx.With(ctx, infoOnly{info})
}

// WithMeta returns ctx carrying a call whose request's params._meta is
// meta (raw JSON; nil for none).
func WithMeta(ctx context.Context, meta string) context.Context {
	info := &protocol.RequestInfo{Era: protocol.Legacy, Revision: protocol.Revision20250618}
	if meta != "" {
		info.Meta = json.RawMessage(meta)
	}
	return Context(ctx, info)
}

// errNoClient answers every question a call without a client asks.
var errNoClient = errors.New("calltest: the call has no client to ask")

// infoOnly is a call that only knows its request.
type infoOnly struct{ info *protocol.RequestInfo }

var _ callctx.Call = infoOnly{}

func (i infoOnly) Request() *protocol.RequestInfo        { return i.info }
func (infoOnly) ServerLogger() *slog.Logger              { return nil }
func (i infoOnly) Meta() json.RawMessage                 { return i.info.Meta }
func (infoOnly) Progress(float64, float64, string) error { return nil }
func (infoOnly) LogEnabled(slog.Level) bool              { return false }
func (infoOnly) Log(slog.Level, string, any) error       { return nil }
func (infoOnly) Remember(string, json.RawMessage)        {}
func (infoOnly) Recall(string) (json.RawMessage, bool)   { return nil, false }
func (infoOnly) TrackElicitation(string)                 {}
func (infoOnly) AskClient(context.Context, string, string, json.RawMessage) (json.RawMessage, error) {
	return nil, errNoClient
}
