package client

import (
	"context"
	"errors"
	json "github.com/goccy/go-json"
	"time"

	"github.com/mcpwire/mcpwire"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// Auto is the zero protocol.Era as Options.Era: detect the era,
// server/discover first, then initialize.
const Auto = protocol.EraUnknown

// Defaults of Options.
const (
	// DefaultDiscoverTimeout bounds the server/discover probe of Auto: a
	// legacy server may never answer it.
	DefaultDiscoverTimeout = 2 * time.Second
	// DefaultMaxInputRounds bounds the input_required rounds of one call.
	DefaultMaxInputRounds = 16
	// MaxPages bounds the pages ListPages fetches for one list.
	MaxPages = 1000
)

// Options configure a Session. The zero value connects in the Auto era,
// declares no capabilities and answers no server request.
type Options struct {
	// Era is the era to speak, or Auto (the zero value) to detect it.
	Era protocol.Era
	// ProtocolVersion is the revision to ask for: the initialize version
	// in the legacy era, the _meta version in the modern era. With Auto, a
	// legacy version is what initialize asks for and a modern one what
	// server/discover offers; the other era gets its latest. Empty means
	// protocol.LatestLegacy and protocol.Latest.
	ProtocolVersion string
	// ClientInfo names the client (default mcpwire-client and mcpwire's
	// version).
	ClientInfo protocol.Implementation
	// Capabilities are declared in initialize (legacy) or in every
	// request's _meta (modern). Nil declares what Handlers can answer:
	// elicitation, sampling and roots, each as {}.
	Capabilities *protocol.ClientCapabilities
	// Handlers answer the server's requests for input.
	Handlers Handlers
	// OnNotification gets every notification the server sends, one at a
	// time, on a goroutine that reads the server's messages (over HTTP,
	// the one of the response stream that carried it), in the order each
	// stream carried them. It must not block or call the session:
	// responses wait while it runs.
	OnNotification func(*jsonrpc.Notification)
	// DiscoverTimeout bounds the server/discover probe of Auto (default
	// DefaultDiscoverTimeout; negative: no bound). The caller's context
	// bounds it too.
	DiscoverTimeout time.Duration
	// MaxInputRounds bounds the input_required rounds of one modern call
	// (default DefaultMaxInputRounds); one more is ErrTooManyRounds.
	MaxInputRounds int
}

// Handlers answer what a server asks the client: legacy requests, or the
// input requests of a modern input_required result. Each may be nil: a
// legacy request without a handler gets -32601, and a modern call whose
// input request has none fails with ErrNoHandler. A handler's context ends
// when the request is cancelled, the call's context ends or the session
// closes. An error it returns answers a legacy request as a JSON-RPC error
// (see jsonrpc.WireError) and fails a modern call.
type Handlers struct {
	// Elicit answers elicitation/create.
	Elicit func(ctx context.Context, params *protocol.ElicitRequestParams) (*protocol.ElicitResult, error)
	// Sample answers sampling/createMessage.
	Sample func(ctx context.Context, params *protocol.CreateMessageRequestParams) (*protocol.CreateMessageResult, error)
	// Roots answers roots/list.
	Roots func(ctx context.Context) (*protocol.ListRootsResult, error)
	// Round, when set, answers the input requests of a modern round whole,
	// by the server's keys, instead of the three above (which still
	// answer legacy requests): each answer is the encoded result, and
	// every key must have one.
	Round func(ctx context.Context, requests map[string]protocol.InputRequest) (map[string]json.RawMessage, error)
}

// Errors of a session; the error returned wraps one of them.
var (
	// ErrClosed: the session was closed.
	ErrClosed = errors.New("client: session closed")
	// ErrDisconnected: the server ended the connection (or an I/O error
	// did) before answering.
	ErrDisconnected = errors.New("client: the server ended the connection")
	// ErrNoHandler: the server asked for input that Options.Handlers does
	// not answer.
	ErrNoHandler = errors.New("client: no handler for the server's input request")
	// ErrTooManyRounds: a call was still input_required after
	// Options.MaxInputRounds rounds.
	ErrTooManyRounds = errors.New("client: too many input_required rounds")
	// ErrTooManyPages: a list had more than MaxPages pages.
	ErrTooManyPages = errors.New("client: too many pages")
	// ErrBadAnswer: a response the client cannot read (a result that is
	// not what the method answers).
	ErrBadAnswer = errors.New("client: invalid answer from the server")
)

// withDefaults fills in the zero fields.
func (o Options) withDefaults() Options {
	if o.ClientInfo.Name == "" {
		o.ClientInfo.Name = "mcpwire-client"
	}
	if o.ClientInfo.Version == "" {
		o.ClientInfo.Version = mcpwire.Version
	}
	if o.DiscoverTimeout == 0 {
		o.DiscoverTimeout = DefaultDiscoverTimeout
	}
	if o.MaxInputRounds <= 0 {
		o.MaxInputRounds = DefaultMaxInputRounds
	}
	if o.Capabilities == nil {
		o.Capabilities = o.Handlers.capabilities()
	}
	return o
}

// capabilities declares what the handlers answer.
func (h Handlers) capabilities() *protocol.ClientCapabilities {
	c := &protocol.ClientCapabilities{}
	if h.Elicit != nil {
		c.Elicitation = &protocol.ElicitationCapability{}
	}
	if h.Sample != nil {
		c.Sampling = &protocol.SamplingCapability{}
	}
	if h.Roots != nil {
		c.Roots = protocol.Object{}
	}
	return c
}

// versions returns the legacy and modern versions to ask for.
func (o Options) versions() (legacy, modern string) {
	legacy, modern = protocol.LatestLegacy.String(), protocol.Latest.String()
	switch v := o.ProtocolVersion; {
	case v == "":
	case o.Era == protocol.Legacy || (o.Era == Auto && protocol.EraOfVersion(v) == protocol.Legacy):
		legacy = v
	default:
		modern = v
	}
	return legacy, modern
}
