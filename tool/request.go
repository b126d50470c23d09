package tool

import (
	"context"

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

// Middleware wraps the handler of a tool. The mcp server applies its
// middlewares after the arguments were validated and before the handler
// runs, outermost first.
type Middleware func(t Tool, next Handler) Handler
