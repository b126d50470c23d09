package client

import (
	"context"

	json "github.com/goccy/go-json"
	"log/slog"
	"maps"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// Options configure a Client. A nil *Options, like the zero value,
// detects the era, declares no capabilities beyond what the handlers
// answer, caches what the server allows, and admits and consumes
// strictly.
type Options struct {
	// Era pins the era: protocol.Legacy (initialize) or protocol.Modern
	// (2026-07-28). The zero value detects it as hosts do: server/discover
	// first, then initialize (see the package documentation).
	Era protocol.Era
	// ProtocolVersion is the revision to ask for; "" asks for the latest
	// of the era (protocol.LatestLegacy, protocol.Latest).
	ProtocolVersion string
	// ClientInfo names the client; the default is mcpwire-client with
	// mcpwire's version.
	ClientInfo protocol.Implementation
	// Capabilities are what the client declares. Nil declares what the
	// handlers below answer: elicitation (form, and url when ElicitURL is
	// set), sampling, and roots when Roots is not nil. Tasks adds the tasks
	// extension either way.
	Capabilities *protocol.ClientCapabilities

	// Elicit answers the server's elicitation/create, in both eras: a
	// legacy server's request, or an input request of a 2026-07-28
	// input_required result. Nil: the client cannot elicit; a legacy
	// request gets -32601, and a modern call that asks fails with
	// ErrNoHandler.
	Elicit func(ctx context.Context, params *protocol.ElicitRequestParams) (*protocol.ElicitResult, error)
	// ElicitURL declares URL-mode elicitation too: Elicit then gets
	// requests whose Mode is "url" and answers them once the user has
	// been to the URL.
	ElicitURL bool
	// Sample answers sampling/createMessage, as Elicit does elicitation.
	Sample func(ctx context.Context, params *protocol.CreateMessageRequestParams) (*protocol.CreateMessageResult, error)
	// Roots are the client's roots, answered to roots/list. Nil declares
	// no roots capability; a non-nil empty list declares it with no roots.
	// [Client.SetRoots] changes them.
	Roots []protocol.Root
	// ListRoots, when set, answers roots/list instead of Roots, each time
	// the server asks (a proxy's roots are those of its caller), and
	// declares the roots capability.
	ListRoots func(ctx context.Context) ([]protocol.Root, error)

	// AnswerInputs, when set, answers each 2026-07-28 input_required
	// round whole (a call's or a task's), by the server's keys, instead
	// of Elicit, Sample and Roots one request at a time; those still
	// answer a legacy server's requests and say what the client declares.
	// Each answer is the encoded result (ElicitResult,
	// CreateMessageResult, ListRootsResult), and every key needs one.
	// This is how a proxy passes a round on as it came. Returning
	// ErrDeferInput ends the call with the round unanswered (see
	// InputRound).
	AnswerInputs func(ctx context.Context, requests map[string]protocol.InputRequest) (map[string]json.RawMessage, error)

	// OnNotification gets every notification the server sends outside a
	// [Client.Listen] stream, in arrival order: log messages
	// (notifications/message), list changes and resource updates of a
	// legacy server, and anything else. It runs on a goroutine that reads
	// the server's messages (over HTTP, the one of the response stream
	// that carried the notification), one notification at a time, and
	// must not block or call the client.
	OnNotification func(*jsonrpc.Notification)

	// Admit is the caller's policy for tools, applied after the
	// specification's rules: a non-nil error refuses the tool, which then
	// never appears in [Client.Tools] and cannot be called. server is the
	// server's serverInfo.
	Admit func(server protocol.Implementation, tool *protocol.Tool) error
	// Lenient turns the Admit and Consume gates into warnings: nothing is
	// refused, every finding is in [Client.Findings]. For debugging a
	// server; never for handing tools to a model.
	Lenient bool

	// Tasks declares the tasks extension (io.modelcontextprotocol/tasks)
	// of 2026-07-28: a server may then answer a tools/call with a task,
	// which [Client.CallTool] follows to its end (tasks/get at the
	// server's poll interval, the task's questions answered by the
	// handlers through tasks/update, tasks/cancel when the call's context
	// ends) and returns as if the call had answered at once.
	Tasks bool
	// Extensions are the extensions the client declares besides tasks,
	// in capabilities.extensions (2026-07-28; see [Extension]). With
	// Capabilities set, they are added to it.
	Extensions []Extension
	// Middleware wraps every request the client sends, and the
	// notifications it sends of its own accord, outermost first (see
	// Middleware).
	Middleware []Middleware
	// OnTask hears each state of a task CallTool follows, as it learns it.
	// It must not block.
	OnTask func(protocol.Task)

	// Reinitialize starts a new legacy HTTP session when the server ended
	// the current one (404 to its id), and sends the refused request again
	// in it; without it the call fails with ErrSessionExpired. Listen
	// streams of the old session end with an error, and a log level set
	// with SetLogLevel is not set again.
	Reinitialize bool

	// NoCache turns off the 2026-07-28 response cache (see the package
	// documentation).
	NoCache bool
	// Logger gets the client's warnings (refused tools, findings) and a
	// stdio server's stderr. Nil is slog.Default(). Nothing logged holds
	// an argument value, a header value or a token.
	Logger *slog.Logger

	// DiscoverTimeout bounds the server/discover probe of era detection
	// (default 2 s): a legacy server may never answer it. Over HTTP with
	// SignIn it does not apply (a sign-in, with its user's step, may come
	// before the answer); Connect's context bounds the probe.
	DiscoverTimeout time.Duration
	// MaxInputRounds bounds the input_required rounds of one 2026-07-28
	// call (default 16).
	MaxInputRounds int
	// MaxMessageBytes bounds one message from the server: a stdio line, a
	// JSON body or an SSE event (default 16 MiB).
	MaxMessageBytes int
}

// logger returns the logger to use.
func (o *Options) logger() *slog.Logger {
	if o.Logger != nil {
		return o.Logger
	}
	return slog.Default()
}

// capabilities returns what the client declares.
func (o *Options) capabilities() *protocol.ClientCapabilities {
	if o.Capabilities != nil {
		c := *o.Capabilities
		o.declareExtensions(&c)
		return &c
	}
	c := &protocol.ClientCapabilities{}
	defer o.declareExtensions(c)
	if o.Elicit != nil {
		c.Elicitation = &protocol.ElicitationCapability{Form: protocol.Object{}}
		if o.ElicitURL {
			c.Elicitation.URL = protocol.Object{}
		}
	}
	if o.Sample != nil {
		c.Sampling = &protocol.SamplingCapability{}
	}
	if o.Roots != nil || o.ListRoots != nil {
		c.Roots = protocol.Object{"listChanged": []byte("true")}
	}
	return c
}

// declareExtensions adds the extensions of Tasks and Extensions to c's,
// without changing the map c had.
func (o *Options) declareExtensions(c *protocol.ClientCapabilities) {
	add := func(id string, capability protocol.Object) {
		if c.Extensions[id] != nil {
			return
		}
		c.Extensions = maps.Clone(c.Extensions)
		if c.Extensions == nil {
			c.Extensions = map[string]protocol.Object{}
		}
		if capability == nil {
			capability = protocol.Object{}
		}
		c.Extensions[id] = capability
	}
	if o.Tasks {
		add(tasksExtension, nil)
	}
	for _, e := range o.Extensions {
		add(e.ID, e.Capability)
	}
}

// named is what the extensions' methods name, for httpconn.
func (o *Options) named() map[string]string {
	var m map[string]string
	for _, e := range o.Extensions {
		for method, member := range e.Named {
			if m == nil {
				m = map[string]string{}
			}
			m[method] = member
		}
	}
	return m
}

// Extension is an extension the client declares: a 2026-07-28 server
// sees it in the client's capabilities.extensions, and may serve the
// methods the extension adds, which [Client.Call] calls. What the server
// advertises is in [Info].Capabilities.Extensions.
type Extension struct {
	// ID is the extension's identifier, such as
	// "io.modelcontextprotocol/skills"; required.
	ID string
	// Capability is the object declared as capabilities.extensions[ID];
	// nil declares {}.
	Capability protocol.Object
	// Named maps each of the extension's methods that names a target to
	// the params member the 2026-07-28 Streamable HTTP transport mirrors
	// in the Mcp-Name header, as the extension defines it (a server checks
	// that header against the body).
	Named map[string]string
}
