// Package calltest gives tests a handler context as the mcp server builds
// it, without a server: a call that knows its request and nothing else
// (no progress token, no client log level, no server log).
package calltest

import (
	"context"
	"log/slog"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/callctx"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// Context returns ctx carrying a call whose request is info.
func Context(ctx context.Context, info *tool.RequestInfo) context.Context {
	return callctx.With(ctx, infoOnly{info})
}

// WithMeta returns ctx carrying a call whose request's params._meta is
// meta (raw JSON; nil for none).
func WithMeta(ctx context.Context, meta string) context.Context {
	info := &tool.RequestInfo{Era: protocol.Legacy, ProtocolVersion: protocol.Revision20250618.String()}
	if meta != "" {
		info.Meta = json.RawMessage(meta)
	}
	return Context(ctx, info)
}

// infoOnly is a call that only knows its request.
type infoOnly struct{ info *tool.RequestInfo }

func (i infoOnly) Request() *tool.RequestInfo            { return i.info }
func (infoOnly) ServerLogger() *slog.Logger              { return nil }
func (i infoOnly) Meta() json.RawMessage                 { return i.info.Meta }
func (infoOnly) Progress(float64, float64, string) error { return nil }
func (infoOnly) LogEnabled(slog.Level) bool              { return false }
func (infoOnly) Log(slog.Level, string, any) error       { return nil }
