package check

import (
	"context"

	"github.com/mcpwire/mcpwire"
	"github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/protocol"
)

// ClientOptions are the reviewer's side of a session: its name
// (mcpwire-check), what it declares and how it answers the server's
// questions (see handlers). The caller sets the era, the version and the
// probe's bound, and connects with them before Run.
func ClientOptions() client.Options {
	return client.Options{ClientInfo: clientInfo(), Capabilities: clientCapabilities(), Handlers: handlers()}
}

// clientInfo names the reviewer to the server.
func clientInfo() protocol.Implementation {
	return protocol.Implementation{Name: "mcpwire-check", Version: mcpwire.Version}
}

// clientCapabilities declares what handlers answer: elicitation (form
// mode) and roots. Sampling is not declared: a tool that asks for it
// anyway is asking for what the client does not have.
func clientCapabilities() *protocol.ClientCapabilities {
	return &protocol.ClientCapabilities{
		Elicitation: &protocol.ElicitationCapability{Form: protocol.Object{}},
		Roots:       protocol.Object{},
	}
}

// handlers answer the server's questions as a user who says no would:
// every elicitation is declined, the roots are none, and sampling is
// refused (no handler: a legacy request gets -32601, a 2026-07-28 call
// that asks fails with client.ErrNoHandler).
func handlers() client.Handlers {
	return client.Handlers{
		Elicit: func(context.Context, *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
			return &protocol.ElicitResult{Action: protocol.ElicitDecline}, nil
		},
		Roots: func(context.Context) (*protocol.ListRootsResult, error) {
			return &protocol.ListRootsResult{Roots: protocol.List[protocol.Root]{}}, nil
		},
	}
}
