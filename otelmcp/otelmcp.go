package otelmcp

import (
	"context"
	"encoding/json"
	"strconv"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpwire/mcpwire"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/mcpwire/mcpwire/otelmcp"

// Attributes of this package, beside the conventions' (see the package
// documentation).
const (
	EraKey     = attribute.Key("mcpwire.protocol.era")
	OutcomeKey = attribute.Key("mcpwire.outcome")
	LimitKey   = attribute.Key("mcpwire.limit")
)

// durationBuckets are the conventions' bucket boundaries for
// mcp.server.operation.duration, in seconds.
var durationBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// Options configure an Observer. The zero value (or nil) uses the global
// providers and the W3C propagators.
type Options struct {
	// TracerProvider makes the tracer (default otel.GetTracerProvider()).
	TracerProvider trace.TracerProvider
	// MeterProvider makes the meter (default otel.GetMeterProvider()).
	MeterProvider metric.MeterProvider
	// Propagator extracts the client's trace context from params._meta
	// (default W3C Trace Context and Baggage; otel.GetTextMapPropagator()
	// for the process's own).
	Propagator propagation.TextMapPropagator
	// RecordErrorMessages puts a JSON-RPC error's message in the span's
	// status description, as the conventions suggest. Off by default: a
	// message may quote what the client sent.
	RecordErrorMessages bool
	// ResourceURIInSpanName makes the resource URI the target of a span's
	// name (resources/read, subscribe, unsubscribe), which the
	// conventions allow as an opt-in.
	ResourceURIInSpanName bool
	// ResourceURIInMetrics adds mcp.resource.uri to the duration and
	// request metrics (Opt-In in the conventions: one series per URI).
	ResourceURIInMetrics bool
}

// Observer is an mcp.Observer that records spans and metrics. Its methods
// are safe for concurrent use.
type Observer struct {
	opts   Options
	tracer trace.Tracer
	prop   propagation.TextMapPropagator

	duration  mcpconv.ServerOperationDuration
	requests  metric.Int64Counter
	active    metric.Int64UpDownCounter
	overloads metric.Int64Counter
	rounds    metric.Int64Counter
}

var _ mcp.Observer = (*Observer)(nil)

// New returns an Observer; opts may be nil. The error is that of creating
// an instrument.
func New(opts *Options) (*Observer, error) {
	o := &Observer{}
	if opts != nil {
		o.opts = *opts
	}
	tp, mp := o.opts.TracerProvider, o.opts.MeterProvider
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	o.prop = o.opts.Propagator
	if o.prop == nil {
		o.prop = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	}
	o.tracer = tp.Tracer(ScopeName, trace.WithInstrumentationVersion(mcpwire.Version), trace.WithSchemaURL(semconv.SchemaURL))
	m := mp.Meter(ScopeName, metric.WithInstrumentationVersion(mcpwire.Version), metric.WithSchemaURL(semconv.SchemaURL))
	var err error
	if o.duration, err = mcpconv.NewServerOperationDuration(m, metric.WithExplicitBucketBoundaries(durationBuckets...)); err != nil {
		return nil, err
	}
	if o.requests, err = m.Int64Counter("mcpwire.server.requests", metric.WithUnit("{request}"),
		metric.WithDescription("MCP requests the server answered or saw cancelled.")); err != nil {
		return nil, err
	}
	if o.active, err = m.Int64UpDownCounter("mcpwire.server.active_requests", metric.WithUnit("{request}"),
		metric.WithDescription("MCP requests in flight.")); err != nil {
		return nil, err
	}
	if o.overloads, err = m.Int64Counter("mcpwire.server.overloads", metric.WithUnit("{request}"),
		metric.WithDescription("MCP requests refused because a server limit was reached.")); err != nil {
		return nil, err
	}
	if o.rounds, err = m.Int64Counter("mcpwire.server.input_required", metric.WithUnit("{round}"),
		metric.WithDescription("Rounds of questions to the client: input_required results.")); err != nil {
		return nil, err
	}
	return o, nil
}

// state is what StartRequest leaves in the context for EndRequest.
type state struct {
	span   trace.Span
	active metric.MeasurementOption // the attributes active was raised with
}

type stateKey struct{}

// StartRequest starts the request's span, its parent the trace context of
// params._meta when there is one, and counts it in flight.
func (o *Observer) StartRequest(ctx context.Context, r *mcp.ObservedRequest) context.Context {
	ambient := trace.SpanContextFromContext(ctx)
	parent := o.prop.Extract(ctx, metaCarrier{r})
	opts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(o.spanAttrs(r)...)}
	if sc := trace.SpanContextFromContext(parent); ambient.IsValid() && sc.IsValid() && !sc.Equal(ambient) {
		opts = append(opts, trace.WithLinks(trace.Link{SpanContext: ambient}))
	}
	ctx, span := o.tracer.Start(parent, o.spanName(r), opts...)
	st := &state{span: span, active: metric.WithAttributes(
		semconv.McpMethodNameKey.String(r.Method), EraKey.String(r.Era.String()), transportAttr(r.Transport))}
	o.active.Add(ctx, 1, st.active)
	return context.WithValue(ctx, stateKey{}, st)
}

// EndRequest ends the span with the request's outcome and records the
// metrics.
func (o *Observer) EndRequest(ctx context.Context, r *mcp.ObservedRequest, end mcp.RequestEnd) {
	st, _ := ctx.Value(stateKey{}).(*state)
	if st == nil {
		return // not a context StartRequest returned
	}
	o.active.Add(ctx, -1, st.active)
	errType, status := outcomeAttrs(end)
	if r.ProtocolVersion != "" { // set by now for initialize
		st.span.SetAttributes(semconv.McpProtocolVersionKey.String(r.ProtocolVersion))
	}
	st.span.SetAttributes(OutcomeKey.String(end.Outcome.String()))
	if errType != "" {
		st.span.SetAttributes(semconv.ErrorTypeKey.String(errType))
		if status != "" {
			st.span.SetAttributes(semconv.RPCResponseStatusCodeKey.String(status))
		}
		desc := ""
		if o.opts.RecordErrorMessages {
			desc = end.Message
		}
		st.span.SetStatus(codes.Error, desc)
	}

	attrs := o.metricAttrs(r, end, errType, status)
	set := metric.WithAttributeSet(attribute.NewSet(attrs...))
	o.duration.Inst().Record(ctx, end.Duration.Seconds(), set)
	o.requests.Add(ctx, 1, set)
	if end.Outcome == mcp.OutcomeInputRequired {
		o.rounds.Add(ctx, 1, metric.WithAttributes(o.targetAttrs(r, end, semconv.McpMethodNameKey.String(r.Method))...))
	}
	st.span.End() // last: once a span ended, its request's metrics are recorded
}

// Overload counts a request refused for a server limit.
func (o *Observer) Overload(ctx context.Context, ov mcp.Overload) {
	attrs := []attribute.KeyValue{LimitKey.String(ov.Limit), transportAttr(ov.Transport)}
	if ov.Method != "" {
		attrs = append(attrs, semconv.McpMethodNameKey.String(ov.Method))
	}
	o.overloads.Add(ctx, 1, metric.WithAttributes(attrs...))
}

// spanName is "{method} {target}", the target a tool or prompt name.
func (o *Observer) spanName(r *mcp.ObservedRequest) string {
	switch {
	case r.Tool != "":
		return r.Method + " " + r.Tool
	case r.Prompt != "":
		return r.Method + " " + r.Prompt
	case r.ResourceURI != "" && o.opts.ResourceURIInSpanName:
		return r.Method + " " + r.ResourceURI
	}
	return r.Method
}

// spanAttrs are the attributes known when the request starts.
func (o *Observer) spanAttrs(r *mcp.ObservedRequest) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 12)
	attrs = append(attrs, semconv.McpMethodNameKey.String(r.Method), EraKey.String(r.Era.String()))
	if id, ok := requestID(r.ID); ok {
		attrs = append(attrs, semconv.JSONRPCRequestIDKey.String(id))
	}
	if r.ProtocolVersion != "" {
		attrs = append(attrs, semconv.McpProtocolVersionKey.String(r.ProtocolVersion))
	}
	if r.SessionID != "" {
		attrs = append(attrs, semconv.McpSessionIDKey.String(r.SessionID))
	}
	if r.Tool != "" {
		attrs = append(attrs, semconv.GenAIToolNameKey.String(r.Tool))
	}
	if r.Method == protocol.MethodCallTool { // the GenAI conventions: calling a tool executes it
		attrs = append(attrs, semconv.GenAIOperationNameExecuteTool)
	}
	if r.Prompt != "" {
		attrs = append(attrs, semconv.GenAIPromptNameKey.String(r.Prompt))
	}
	if r.ResourceURI != "" {
		attrs = append(attrs, semconv.McpResourceURIKey.String(r.ResourceURI))
	}
	return append(attrs, networkAttrs(r.Transport)...)
}

// metricAttrs are the attributes of the duration and the request count.
func (o *Observer) metricAttrs(r *mcp.ObservedRequest, end mcp.RequestEnd, errType, status string) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 12)
	attrs = append(attrs, semconv.McpMethodNameKey.String(r.Method), EraKey.String(r.Era.String()),
		OutcomeKey.String(end.Outcome.String()))
	attrs = o.targetAttrs(r, end, attrs...)
	if r.Method == protocol.MethodCallTool { // the GenAI conventions: calling a tool executes it
		attrs = append(attrs, semconv.GenAIOperationNameExecuteTool)
	}
	if r.ProtocolVersion != "" {
		attrs = append(attrs, semconv.McpProtocolVersionKey.String(r.ProtocolVersion))
	}
	if errType != "" {
		attrs = append(attrs, semconv.ErrorTypeKey.String(errType))
	}
	if status != "" {
		attrs = append(attrs, semconv.RPCResponseStatusCodeKey.String(status))
	}
	if r.ResourceURI != "" && o.opts.ResourceURIInMetrics {
		attrs = append(attrs, semconv.McpResourceURIKey.String(r.ResourceURI))
	}
	return append(attrs, networkAttrs(r.Transport)...)
}

// targetAttrs appends the tool and prompt names, unless the request was
// refused as unknown (a name the client made up: see the package
// documentation).
func (o *Observer) targetAttrs(r *mcp.ObservedRequest, end mcp.RequestEnd, attrs ...attribute.KeyValue) []attribute.KeyValue {
	if end.Outcome == mcp.OutcomeError && (end.Code == jsonrpc.CodeMethodNotFound || end.Code == jsonrpc.CodeInvalidParams) {
		return attrs
	}
	if r.Tool != "" {
		attrs = append(attrs, semconv.GenAIToolNameKey.String(r.Tool))
	}
	if r.Prompt != "" {
		attrs = append(attrs, semconv.GenAIPromptNameKey.String(r.Prompt))
	}
	return attrs
}

// outcomeAttrs returns the error.type and rpc.response.status_code of an
// outcome, "" for none.
func outcomeAttrs(end mcp.RequestEnd) (errType, status string) {
	switch end.Outcome {
	case mcp.OutcomeError, mcp.OutcomeOverloaded, mcp.OutcomeTimedOut:
		code := strconv.FormatInt(end.Code, 10)
		return code, code
	case mcp.OutcomeToolError:
		return "tool_error", ""
	case mcp.OutcomeCancelled:
		return "cancelled", ""
	}
	return "", ""
}

// networkAttrs describe the transport as the conventions' table does.
func networkAttrs(transport string) []attribute.KeyValue {
	switch transport {
	case mcp.TransportStream:
		return []attribute.KeyValue{semconv.NetworkTransportPipe}
	case mcp.TransportHTTP:
		return []attribute.KeyValue{semconv.NetworkTransportTCP, semconv.NetworkProtocolName("http")}
	}
	return nil
}

// transportAttr is network.transport alone, for the smaller metrics.
func transportAttr(transport string) attribute.KeyValue {
	switch transport {
	case mcp.TransportStream:
		return semconv.NetworkTransportPipe
	case mcp.TransportHTTP:
		return semconv.NetworkTransportTCP
	}
	return semconv.NetworkTransportKey.String(transport)
}

// requestID is the string form of an id: a string id's text, a number's
// digits; ok is false when the request had none (the conventions record
// none then).
func requestID(id jsonrpc.ID) (string, bool) {
	if !id.IsValid() || id.Raw() == "null" {
		return "", false
	}
	if !id.IsString() {
		return id.Raw(), true
	}
	var s string
	if json.Unmarshal([]byte(id.Raw()), &s) != nil {
		return id.Raw(), true
	}
	return s, true
}

// metaCarrier reads a request's params._meta as a propagation carrier.
type metaCarrier struct{ r *mcp.ObservedRequest }

func (c metaCarrier) Get(key string) string { return c.r.MetaString(key) }
func (c metaCarrier) Set(string, string)    {} // the server never writes a request's _meta
func (c metaCarrier) Keys() []string        { return c.r.MetaKeys() }

var _ propagation.TextMapCarrier = metaCarrier{}
