package mcp

import (
	"context"
	"errors"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/internal/overload"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// Observer watches the requests a Server serves, for traces and metrics
// (module otelmcp implements it with OpenTelemetry), as a gRPC stats
// handler watches RPCs: hooks at fixed points that learn what a request is
// (its method, its target, its id, its era) and how it ended, never the
// values of its arguments or of its result.
//
// Every request the server reads, on every transport (Serve, and the
// endpoints of the HTTP helper, both eras), gets exactly one StartRequest
// and, after it, exactly one EndRequest; refused requests too (an unknown
// method, a duplicate id, an overload), with EndRequest right after
// StartRequest. Notifications and the client's responses are not
// requests: they are not observed.
//
// Its methods are called from many goroutines at once, StartRequest and
// EndRequest of one request possibly from two, and some of them from a
// connection's read loop: they must be safe for concurrent use, and must
// not block.
type Observer interface {
	// StartRequest is called when a request has been routed (its era and
	// target are known), before its handler runs. It returns ctx or a
	// context derived from it: the handler's context is the one it
	// returns, and so is EndRequest's, so a span started here is the
	// parent of the handler's own. ctx carries the values of the
	// transport's context (an HTTP request's), not its cancellation.
	StartRequest(ctx context.Context, r *ObservedRequest) context.Context
	// EndRequest is called when the request is answered, or cancelled
	// without an answer: at a timeout or a cancellation that may be before
	// its handler returns. r is the value StartRequest was given; neither
	// may keep it afterwards.
	EndRequest(ctx context.Context, r *ObservedRequest, end RequestEnd)
	// Overload is called once for every request refused because a server
	// limit was reached: by the server just before that request's
	// EndRequest (whose Outcome is OutcomeOverloaded), and by a transport
	// that refuses a request before the server sees it (an HTTP 503 from
	// the HTTP helper's admission limits), in which case no StartRequest
	// or EndRequest is called for it.
	Overload(ctx context.Context, o Overload)
}

// Transports an ObservedRequest or an Overload names.
const (
	// TransportStream: a connection served by Server.Serve (stdio, a pipe).
	TransportStream = "stream"
	// TransportHTTP: an Endpoint (the HTTP helper's), unless its
	// EndpointOptions.Transport says otherwise.
	TransportHTTP = "http"
)

// ObservedRequest is what an Observer learns of a request: what it
// targets and which protocol it speaks, never its arguments. Its fields are
// set before StartRequest; an Observer must not change them.
type ObservedRequest struct {
	// Method is the request's method, as sent.
	Method string
	// ID is the request's id.
	ID jsonrpc.ID
	// Tool is the tool a tools/call names.
	Tool string
	// Prompt is the prompt a prompts/get names, or the prompt whose
	// argument a completion/complete completes.
	Prompt string
	// ResourceURI is the resource of resources/read, resources/subscribe
	// and resources/unsubscribe, or the URI template whose variable a
	// completion/complete completes. Unlike a tool or a prompt name it may
	// have high cardinality.
	ResourceURI string
	// Era is the request's era: Modern when its _meta names a protocol
	// version; zero when it was refused before that could be read (params
	// that are not an object).
	Era protocol.Era
	// ProtocolVersion is the revision the request is served in: the
	// declared one (modern) or the session's (legacy); empty when it is not
	// one this server serves, or before initialize. For initialize, it is
	// set to the negotiated revision before EndRequest.
	ProtocolVersion string
	// Transport is TransportStream, TransportHTTP, or what the endpoint's
	// EndpointOptions.Transport names.
	Transport string
	// SessionID is the session the request belongs to, when its transport
	// has one with an id (a legacy HTTP session's Mcp-Session-Id).
	SessionID string

	meta jsonx.Object // params._meta
}

// MetaString returns the string value of the request's params._meta[key],
// "" when it is absent or not a string. The W3C Trace Context and Baggage
// keys (traceparent, tracestate, baggage), which the 2026-07-28 revision
// reserves unprefixed in _meta for OpenTelemetry, are read with it: it is
// the Get of a propagation carrier.
func (r *ObservedRequest) MetaString(key string) string { return paramString(r.meta, key) }

// MetaKeys returns the keys of the request's params._meta (a new slice).
func (r *ObservedRequest) MetaKeys() []string {
	keys := make([]string, 0, r.meta.Len())
	r.meta.Each(func(key string, _ json.RawMessage) { keys = append(keys, key) })
	return keys
}

// Outcome is how a request ended.
type Outcome int

// Outcomes of RequestEnd.
const (
	// OutcomeResult: answered with a result.
	OutcomeResult Outcome = iota + 1
	// OutcomeToolError: a tools/call answered with an isError result.
	OutcomeToolError
	// OutcomeInputRequired: a 2026-07-28 request answered with an
	// input_required result, ending one round of its questions to the
	// client (RequestEnd.Rounds counts the earlier ones).
	OutcomeInputRequired
	// OutcomeError: answered with a JSON-RPC error (RequestEnd.Code).
	OutcomeError
	// OutcomeOverloaded: refused for a server limit, with the overload
	// error (-32603, data.reason "overloaded").
	OutcomeOverloaded
	// OutcomeTimedOut: answered with the timeout error once it ran longer
	// than Options.CallTimeout (-32603, data.reason "timeout").
	OutcomeTimedOut
	// OutcomeCancelled: cancelled by the client (notifications/cancelled)
	// or by its exchange ending (an HTTP client that went away), and so
	// never answered.
	OutcomeCancelled
)

// String returns the outcome's name: "result", "tool_error",
// "input_required", "error", "overloaded", "timeout" or "cancelled".
func (o Outcome) String() string {
	switch o {
	case OutcomeResult:
		return "result"
	case OutcomeToolError:
		return "tool_error"
	case OutcomeInputRequired:
		return "input_required"
	case OutcomeError:
		return "error"
	case OutcomeOverloaded:
		return "overloaded"
	case OutcomeTimedOut:
		return "timeout"
	case OutcomeCancelled:
		return "cancelled"
	}
	return "unknown"
}

// Reasons of RequestEnd for a cancelled request.
const (
	// ReasonCancelled: the client sent notifications/cancelled.
	ReasonCancelled = "cancelled"
	// ReasonExchangeClosed: the request's exchange ended first
	// (ErrExchangeClosed).
	ReasonExchangeClosed = "exchange_closed"
)

// RequestEnd is how a request ended.
type RequestEnd struct {
	// Outcome is how it ended.
	Outcome Outcome
	// Code is the JSON-RPC error code of an error answer (OutcomeError,
	// OutcomeOverloaded, OutcomeTimedOut); 0 otherwise.
	Code int64
	// Reason is the data.reason of an error answer when the server gave
	// one ("overloaded", "timeout", "rate_limited", "quota"), or, for
	// OutcomeCancelled, ReasonCancelled or ReasonExchangeClosed.
	Reason string
	// Message is the message of an error answer. The server writes it,
	// but it may quote what the client sent (an unknown name, a bad
	// value): it is no attribute to record by default.
	Message string
	// Rounds is how many input_required rounds the request's requestState
	// says were answered before it (0 for a first request).
	Rounds int
	// Duration is the time from when the request was read to when it was
	// answered or cancelled.
	Duration time.Duration
}

// Overload is a request refused because a server limit was reached.
type Overload struct {
	// Limit names the limit by its option: "MaxQueuedCalls" (the requests
	// running and waiting, MaxConcurrentCalls+MaxQueuedCalls),
	// "MaxQueuedBytes", "MaxListenStreams" (on a connection or a legacy
	// session), "MaxListenStreamsTotal" (on an endpoint callers share),
	// or a transport's own: the HTTP helper's "MaxRequests",
	// "MaxRequestBytes", "MaxSessions" and "MinFreeDescriptors", and the
	// quotas it keeps before the server sees a request,
	// "MaxSessionsPerCaller" and "MaxSessionStreams". A request the server
	// refuses because its caller used up its own share (CodeQuotaExceeded,
	// such as MaxListenStreamsPerCaller or MaxTasksPerCaller) is no
	// overload: the server still serves others, and it ends as
	// OutcomeError with Reason "quota".
	Limit string
	// Method is the refused request's method; "" when the transport
	// refused it before its body was read (MaxRequestBytes while the body
	// arrived).
	Method string
	// Transport is as in ObservedRequest.
	Transport string
}

// reportOverload tells Options.Observer, if any, of a request the
// transport refused for a limit of its own before the server saw it (the
// HTTP helper's 503s, through overload.Report). ctx is the transport's
// (the HTTP request's).
func (s *Server) reportOverload(ctx context.Context, o Overload) {
	if obs := s.opts.Observer; obs != nil {
		obs.Overload(ctx, o)
	}
}

func init() {
	overload.Report = func(ctx context.Context, srv any, limit, method, transport string) {
		srv.(*Server).reportOverload(ctx, Overload{Limit: limit, Method: method, Transport: transport})
	}
}

// observation is one observed request: made only when Options.Observer is
// set, so that a server without one pays a nil check per request.
type observation struct {
	obs   Observer
	req   ObservedRequest
	ctx   context.Context // what StartRequest returned
	start time.Time
	ss    *session

	// Set while the call is in flight, under its mu and only until it is
	// done (see call.observeLimit and call.observeResult); read once it is.
	limit         string // the limit dispatch refused the call for
	rounds        int
	inputRequired bool
}

// observe starts observing a request read now, before it is routed; nil
// when the server has no observer. bound is dispatch's: an endpoint's
// exchange context, which names the endpoint (see Endpoint.handle).
func (ss *session) observe(bound context.Context) *observation {
	obs := ss.srv.opts.Observer
	if obs == nil {
		return nil
	}
	o := &observation{obs: obs, start: time.Now(), ss: ss}
	o.req.Transport = TransportStream
	if bound != nil {
		if e, ok := bound.Value(endpointKey{}).(*Endpoint); ok {
			o.req.Transport, o.req.SessionID = e.transport, e.sessionID
		}
	}
	return o
}

// endpointKey is the context key under which Endpoint.handle names its
// endpoint to dispatch, when the server has an observer.
type endpointKey struct{}

// describe fills in what routing learnt of the request: req as read, r as
// routed (nil when its params were not an object).
func (o *observation) describe(req *jsonrpc.Request, r *request) {
	o.req.Method, o.req.ID = req.Method, req.ID
	if r == nil {
		return
	}
	o.req.meta = r.metaObj
	o.req.Era = protocol.Legacy
	if r.modern() || r.metaObj.Get(protocol.MetaProtocolVersion) != nil {
		o.req.Era = protocol.Modern
	}
	switch {
	case r.rev != 0:
		o.req.ProtocolVersion = r.version
	case o.req.Era == protocol.Legacy: // refused before routing read the session's
		o.ss.mu.Lock()
		o.req.ProtocolVersion = o.ss.version
		o.ss.mu.Unlock()
	}
	switch o.ss.srv.methodTarget(req.Method) {
	case targetTool:
		o.req.Tool = paramString(r.params, "name")
	case targetPrompt:
		o.req.Prompt = paramString(r.params, "name")
	case targetResource:
		o.req.ResourceURI = paramString(r.params, "uri")
	case targetRef:
		ref, _ := jsonx.ParseObject(r.params.Get("ref"))
		switch paramString(ref, "type") {
		case protocol.TypeRefPrompt:
			o.req.Prompt = paramString(ref, "name")
		case protocol.TypeRefResource:
			o.req.ResourceURI = paramString(ref, "uri")
		}
	}
}

// paramString is the string member key of obj, "" when absent or not a
// string.
func paramString(obj jsonx.Object, key string) string {
	raw := obj.Get(key)
	if jsonx.FirstByte(raw) != '"' {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// begin calls StartRequest with ctx and returns the handler's context.
func (o *observation) begin(ctx context.Context) context.Context {
	if got := o.obs.StartRequest(ctx, &o.req); got != nil {
		ctx = got
	}
	o.ctx = ctx
	return ctx
}

// refuse answers through respond a request that never became a call
// (routing refused it, or the endpoint is closed), between its
// StartRequest and its EndRequest.
func (o *observation) refuse(bound context.Context, resp *jsonrpc.Response, respond responder) {
	if bound == nil {
		bound = context.Background()
	}
	o.begin(bound)
	respond(resp)
	o.end(resp, nil)
}

// end calls EndRequest (and Overload first, for an overload) for the
// request's answer resp, or for its cancellation with cause when resp is
// nil.
func (o *observation) end(resp *jsonrpc.Response, cause error) {
	e := RequestEnd{Duration: time.Since(o.start), Rounds: o.rounds}
	switch {
	case resp == nil:
		e.Outcome, e.Reason = OutcomeCancelled, ReasonCancelled
		if errors.Is(cause, ErrExchangeClosed) {
			e.Reason = ReasonExchangeClosed
		}
	case resp.Error != nil:
		e.Outcome, e.Code, e.Message = OutcomeError, resp.Error.Code, resp.Error.Message
		if obj, err := jsonx.ParseObject(resp.Error.Data); err == nil {
			e.Reason = paramString(obj, "reason")
		}
		switch e.Reason {
		case "overloaded":
			e.Outcome = OutcomeOverloaded
		case "timeout":
			e.Outcome = OutcomeTimedOut
		}
	case o.inputRequired:
		e.Outcome = OutcomeInputRequired
	case o.ss.srv.methodTarget(o.req.Method) == targetTool && isErrorResult(resp.Result):
		e.Outcome = OutcomeToolError
	default:
		e.Outcome = OutcomeResult
	}
	if o.req.Method == protocol.MethodInitialize && o.req.ProtocolVersion == "" {
		o.ss.mu.Lock()
		o.req.ProtocolVersion = o.ss.version
		o.ss.mu.Unlock()
	}
	if e.Outcome == OutcomeOverloaded {
		// Every refusal for a limit names it (observeLimit), a listen
		// stream's too (admitListen): which of its two bounds refused it.
		o.obs.Overload(o.ctx, Overload{Limit: o.limit, Method: o.req.Method, Transport: o.req.Transport})
	}
	o.obs.EndRequest(o.ctx, &o.req, e)
}

// isErrorResult reports whether a result's top-level isError is true.
func isErrorResult(raw json.RawMessage) bool {
	f, err := jsonx.Fields(raw, "isError")
	return err == nil && string(f[0]) == "true"
}

// observeLimit records the limit the call is about to be refused for.
func (c *call) observeLimit(limit string) {
	if c.ob == nil {
		return
	}
	c.mu.Lock()
	if !c.done {
		c.ob.limit = limit
	}
	c.mu.Unlock()
}

// observeResult records the call's input rounds once its handler
// returned result (nil with an error).
func (c *call) observeResult(result any) {
	if c.ob == nil {
		return
	}
	_, asks := result.(*protocol.InputRequiredResult)
	c.mu.Lock()
	if !c.done {
		if c.in != nil {
			c.ob.rounds = c.in.round
		}
		c.ob.inputRequired = asks
	}
	c.mu.Unlock()
}
