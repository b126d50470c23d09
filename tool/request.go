package tool

import (
	"context"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/protocol"
)

// RequestInfo is what a handler can learn about the request it serves.
type RequestInfo struct {
	// Era is the request's protocol era.
	Era protocol.Era
	// ProtocolVersion is the negotiated (legacy) or declared (modern)
	// protocol version.
	ProtocolVersion string
	// ClientInfo is the client's Implementation object, raw; nil if the
	// client sent none.
	ClientInfo json.RawMessage
	// ClientCapabilities is the client's capabilities object, raw.
	ClientCapabilities json.RawMessage
	// Meta is the request's params._meta object, raw; nil if absent.
	Meta json.RawMessage
	// Caller is who the request acts for: on stdio the identity the
	// server was started with (mcp.Options.Caller); nil when none is
	// known. A handler must not show a caller what it may not see.
	Caller *auth.Principal
}

// RequestFrom returns the request info of the call in progress, or nil
// outside a call.
func RequestFrom(ctx context.Context) *RequestInfo {
	if c := callFrom(ctx); c != nil {
		return c.Request()
	}
	return nil
}

// Middleware wraps the handler of a tool. The mcp server applies its
// middlewares after the arguments were validated and before the handler
// runs, outermost first.
type Middleware func(t Tool, next Handler) Handler
