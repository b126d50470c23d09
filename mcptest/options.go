package mcptest

import (
	"context"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire"
	"github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// An Option configures a Client.
type Option func(*config)

// config is what the options set.
type config struct {
	era      protocol.Era
	version  string
	caps     *protocol.ClientCapabilities
	handlers client.Handlers
	onLog    func(protocol.LoggingMessageNotificationParams) // OnLog
	callAll  bool                                            // Check calls every no-argument tool (CallAll)
	// timeout and total bound Check's listings and calls, and the whole
	// review (CheckTimeout, CheckTotal); zero takes mcpwire check's
	// defaults.
	timeout, total time.Duration
}

// options returns the session's options.
func (c config) options() client.Options {
	return client.Options{
		Era:             c.era,
		ProtocolVersion: c.version,
		ClientInfo:      protocol.Implementation{Name: "mcptest", Version: mcpwire.Version},
		Capabilities:    c.caps,
		Handlers:        c.handlers,
		OnNotification:  c.notified,
	}
}

// notified hands the server's log messages to OnLog's f.
func (c config) notified(n *jsonrpc.Notification) {
	if c.onLog == nil || n.Method != protocol.NotificationMessage {
		return
	}
	var p protocol.LoggingMessageNotificationParams
	if json.Unmarshal(n.Params, &p) == nil {
		c.onLog(p)
	}
}

// OnLog hands f every notifications/message the server sends (the
// specification's Logging section), on the client's reading goroutine
// and in arrival order; f must not block or call the client. A server
// logs only at the level Client.SetLogLevel asked for.
func OnLog(f func(protocol.LoggingMessageNotificationParams)) Option {
	return func(c *config) { c.onLog = f }
}

// Legacy makes the client speak the initialize era, asking for version
// ("" means 2025-11-25); the revision the server negotiates is the
// client's Revision.
func Legacy(version string) Option {
	return func(c *config) { c.era, c.version = protocol.Legacy, version }
}

// Modern makes the client speak 2026-07-28, the default.
func Modern() Option {
	return func(c *config) { c.era, c.version = protocol.Modern, "" }
}

// Capabilities declares caps as the client's capabilities, instead of the
// ones the Answer options and Roots imply: to declare a capability the
// test answers nothing for (elicitation.url), or to declare none.
func Capabilities(caps protocol.ClientCapabilities) Option {
	return func(c *config) { c.caps = &caps }
}

// AnswerElicitation answers the server's elicitations with answer, and
// declares the elicitation capability. It may run on a goroutine of its
// own in the legacy era.
func AnswerElicitation(answer func(protocol.ElicitRequestParams) protocol.ElicitResult) Option {
	return func(c *config) {
		c.handlers.Elicit = func(_ context.Context, p *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
			r := answer(*p)
			return &r, nil
		}
	}
}

// AnswerSampling answers the server's sampling requests with answer, and
// declares the sampling capability. It may run on a goroutine of its own
// in the legacy era.
func AnswerSampling(answer func(protocol.CreateMessageRequestParams) protocol.CreateMessageResult) Option {
	return func(c *config) {
		c.handlers.Sample = func(_ context.Context, p *protocol.CreateMessageRequestParams) (*protocol.CreateMessageResult, error) {
			r := answer(*p)
			return &r, nil
		}
	}
}

// Roots answers roots/list with roots, and declares the roots capability.
func Roots(roots ...protocol.Root) Option {
	return func(c *config) {
		c.handlers.Roots = func(context.Context) (*protocol.ListRootsResult, error) {
			return &protocol.ListRootsResult{Roots: roots}, nil
		}
	}
}
