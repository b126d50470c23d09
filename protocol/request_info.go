package protocol

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
)

// RequestInfo is what a handler (a tool's, a prompt's, a resource's or a
// completion's) can learn about the request it serves; mcp.RequestFrom
// returns it.
type RequestInfo struct {
	// Era is the request's protocol era, Revision.Era(): kept as a field
	// because most handlers ask only which era they serve.
	Era Era
	// Revision is the negotiated (legacy) or declared (modern) protocol
	// revision. A request a server serves always has a known one.
	Revision Revision
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
