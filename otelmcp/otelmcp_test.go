package otelmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/internal/overload"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/otelmcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// secret is in every argument and every result the tests send: no span
// or metric attribute may carry it.
const secret = "s3cr3t-value"

// env is a server observed by an otelmcp.Observer over an in-memory span
// recorder and a manual metric reader.
type env struct {
	t       *testing.T
	spans   *tracetest.SpanRecorder
	metrics *sdkmetric.ManualReader
	srv     *mcp.Server
	tp      *sdktrace.TracerProvider
}

func newEnv(t *testing.T, mopts *mcp.Options, oopts *otelmcp.Options, tools ...tool.Tool) *env {
	t.Helper()
	e := &env{t: t, spans: tracetest.NewSpanRecorder(), metrics: sdkmetric.NewManualReader()}
	e.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(e.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(e.metrics))
	if oopts == nil {
		oopts = &otelmcp.Options{}
	}
	oopts.TracerProvider, oopts.MeterProvider = e.tp, mp
	obs, err := otelmcp.New(oopts)
	if err != nil {
		t.Fatal(err)
	}
	if mopts == nil {
		mopts = &mcp.Options{}
	}
	mopts.Observer = obs
	mopts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	e.srv = mcp.NewServer(mcp.Implementation{Name: "test", Version: "1"}, mopts)
	for _, tl := range tools {
		e.srv.MustAddTool(tl)
	}
	return e
}

func rawTool(name string, h tool.Handler) tool.Tool {
	return tool.Tool{Name: name, Description: name, InputSchema: json.RawMessage(`{"type":"object"}`), Handler: h}
}

var (
	okTool = rawTool("ok", func(context.Context, json.RawMessage) (*tool.Result, error) {
		return tool.TextResult("result " + secret), nil
	})
	failsTool = rawTool("fails", func(context.Context, json.RawMessage) (*tool.Result, error) {
		return nil, errors.New("failed with " + secret)
	})
	waitTool = rawTool("wait", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	asksTool = rawTool("asks", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		form := protocol.RequestedSchema{Properties: map[string]protocol.PrimitiveSchemaDefinition{"name": {String: &protocol.StringSchema{}}}}
		if _, err := ask.Elicit(ctx, "Name?", form, ask.Key("name")); err != nil {
			return nil, err
		}
		return tool.TextResult("thanks"), nil
	})
)

// modern is a 2026-07-28 request; meta joins its _meta.
func modern(id int64, method string, params map[string]any, meta map[string]any) *jsonrpc.Request {
	if params == nil {
		params = map[string]any{}
	}
	m := map[string]any{
		protocol.MetaProtocolVersion:    "2026-07-28",
		protocol.MetaClientCapabilities: map[string]any{"elicitation": map[string]any{}},
		protocol.MetaClientInfo:         map[string]any{"name": "t", "version": "1"},
	}
	for k, v := range meta {
		m[k] = v
	}
	params["_meta"] = m
	raw, _ := json.Marshal(params)
	return &jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: method, Params: raw}
}

func callTool(id int64, name string, meta map[string]any) *jsonrpc.Request {
	return modern(id, "tools/call", map[string]any{"name": name, "arguments": map[string]any{"x": secret}}, meta)
}

// handle serves req on a stateless endpoint with ctx and returns its
// response (nil when ctx ended first).
func (e *env) handle(ctx context.Context, req *jsonrpc.Request) *jsonrpc.Response {
	e.t.Helper()
	ep := e.srv.NewEndpoint(mcp.EndpointOptions{Stateless: true})
	defer ep.Close()
	got := make(chan *jsonrpc.Response, 1)
	ep.Handle(ctx, req, func(m jsonrpc.Message) {
		if r, ok := m.(*jsonrpc.Response); ok {
			got <- r
		}
	})
	select {
	case r := <-got:
		return r
	case <-ctx.Done():
		return nil
	case <-time.After(5 * time.Second):
		e.t.Fatal("no response")
		return nil
	}
}

// span returns the one ended span, waiting for it briefly.
func (e *env) span() sdktrace.ReadOnlySpan {
	e.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(e.spans.Ended()) == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	ended := e.spans.Ended()
	if len(ended) != 1 {
		e.t.Fatalf("%d spans ended, want 1", len(ended))
	}
	return ended[0]
}

func attrsOf(kvs []attribute.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

// wantAttrs checks that got holds want (and lacks the keys whose wanted
// value is "-").
func wantAttrs(t *testing.T, what string, got map[string]string, want map[string]string) {
	t.Helper()
	for k, v := range want {
		g, ok := got[k]
		switch {
		case v == "-" && ok:
			t.Errorf("%s: %s = %q, want none", what, k, g)
		case v != "-" && g != v:
			t.Errorf("%s: %s = %q, want %q", what, k, g, v)
		}
	}
}

// collect reads the metrics.
func (e *env) collect() map[string]metricdata.Aggregation {
	e.t.Helper()
	var rm metricdata.ResourceMetrics
	if err := e.metrics.Collect(context.Background(), &rm); err != nil {
		e.t.Fatal(err)
	}
	out := map[string]metricdata.Aggregation{}
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != otelmcp.ScopeName {
			e.t.Errorf("scope %q", sm.Scope.Name)
		}
		for _, m := range sm.Metrics {
			out[m.Name] = m.Data
		}
	}
	return out
}

// sum returns the one data point of a counter, and its attributes.
func sum(t *testing.T, data metricdata.Aggregation, name string) (int64, map[string]string) {
	t.Helper()
	s, ok := data.(metricdata.Sum[int64])
	if !ok || len(s.DataPoints) != 1 {
		t.Fatalf("%s: %#v, want one int64 sum data point", name, data)
	}
	return s.DataPoints[0].Value, attrsOf(s.DataPoints[0].Attributes.ToSlice())
}

// noSecret fails when any attribute of any span or metric holds secret.
func (e *env) noSecret() {
	e.t.Helper()
	for _, s := range e.spans.Ended() {
		for k, v := range attrsOf(s.Attributes()) {
			if strings.Contains(v, secret) {
				e.t.Errorf("span %q: attribute %s carries an argument or result value: %q", s.Name(), k, v)
			}
		}
		if strings.Contains(s.Name(), secret) || strings.Contains(s.Status().Description, secret) {
			e.t.Errorf("span %q (%q) carries an argument or result value", s.Name(), s.Status().Description)
		}
	}
	for name, data := range e.collect() {
		var sets []attribute.Set
		switch d := data.(type) {
		case metricdata.Sum[int64]:
			for _, p := range d.DataPoints {
				sets = append(sets, p.Attributes)
			}
		case metricdata.Histogram[float64]:
			for _, p := range d.DataPoints {
				sets = append(sets, p.Attributes)
			}
		}
		for _, set := range sets {
			for k, v := range attrsOf(set.ToSlice()) {
				if strings.Contains(v, secret) {
					e.t.Errorf("metric %s: attribute %s carries an argument or result value", name, k)
				}
			}
		}
	}
}

// A result: a SERVER span named after the tool, with the conventions'
// attributes and no error; the duration, the request count, and nothing
// left in flight.
func TestResult(t *testing.T) {
	e := newEnv(t, nil, nil, okTool)
	if r := e.handle(context.Background(), callTool(7, "ok", nil)); r.Error != nil {
		t.Fatal(r.Error)
	}
	s := e.span()
	if s.Name() != "tools/call ok" || s.SpanKind() != trace.SpanKindServer || s.Status().Code != codes.Unset {
		t.Errorf("span %q kind %v status %v", s.Name(), s.SpanKind(), s.Status())
	}
	wantAttrs(t, "span", attrsOf(s.Attributes()), map[string]string{
		"mcp.method.name": "tools/call", "gen_ai.tool.name": "ok", "gen_ai.operation.name": "execute_tool",
		"jsonrpc.request.id": "7", "mcp.protocol.version": "2026-07-28", "network.transport": "tcp",
		"network.protocol.name": "http", "mcpwire.protocol.era": "modern", "mcpwire.outcome": "result",
		"error.type": "-", "rpc.response.status_code": "-", "mcp.session.id": "-",
	})
	if got := s.InstrumentationScope().Name; got != otelmcp.ScopeName {
		t.Errorf("scope %q", got)
	}
	m := e.collect()
	h, ok := m["mcp.server.operation.duration"].(metricdata.Histogram[float64])
	if !ok || len(h.DataPoints) != 1 || h.DataPoints[0].Count != 1 {
		t.Fatalf("duration %#v", m["mcp.server.operation.duration"])
	}
	if b := h.DataPoints[0].Bounds; len(b) != 14 || b[0] != 0.01 || b[13] != 300 {
		t.Errorf("bucket boundaries %v", b)
	}
	wantAttrs(t, "duration", attrsOf(h.DataPoints[0].Attributes.ToSlice()), map[string]string{
		"mcp.method.name": "tools/call", "gen_ai.tool.name": "ok", "mcpwire.outcome": "result", "error.type": "-",
		"jsonrpc.request.id": "-", "network.transport": "tcp",
	})
	if n, _ := sum(t, m["mcpwire.server.requests"], "requests"); n != 1 {
		t.Errorf("requests %d", n)
	}
	if n, attrs := sum(t, m["mcpwire.server.active_requests"], "active"); n != 0 || attrs["mcp.method.name"] != "tools/call" {
		t.Errorf("active %d %v", n, attrs)
	}
	e.noSecret()
}

// An isError result: error.type tool_error and status ERROR, with no
// description (a message may quote the client).
func TestToolError(t *testing.T) {
	e := newEnv(t, nil, nil, failsTool)
	e.handle(context.Background(), callTool(1, "fails", nil))
	s := e.span()
	if s.Status().Code != codes.Error || s.Status().Description != "" {
		t.Errorf("status %v", s.Status())
	}
	wantAttrs(t, "span", attrsOf(s.Attributes()), map[string]string{
		"error.type": "tool_error", "rpc.response.status_code": "-", "mcpwire.outcome": "tool_error",
	})
	e.noSecret()
}

// A JSON-RPC error: error.type and rpc.response.status_code are its
// code; the unknown tool's name stays off the metrics.
func TestJSONRPCError(t *testing.T) {
	e := newEnv(t, nil, &otelmcp.Options{RecordErrorMessages: true})
	r := e.handle(context.Background(), callTool(1, "nope", nil))
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("response %+v", r)
	}
	s := e.span()
	if s.Status().Code != codes.Error || s.Status().Description != r.Error.Message {
		t.Errorf("status %v, want the message (RecordErrorMessages)", s.Status())
	}
	wantAttrs(t, "span", attrsOf(s.Attributes()), map[string]string{
		"error.type": "-32602", "rpc.response.status_code": "-32602", "mcpwire.outcome": "error", "gen_ai.tool.name": "nope",
	})
	h := e.collect()["mcp.server.operation.duration"].(metricdata.Histogram[float64])
	wantAttrs(t, "duration", attrsOf(h.DataPoints[0].Attributes.ToSlice()), map[string]string{
		"error.type": "-32602", "gen_ai.tool.name": "-",
	})
}

// An unknown method, refused before it becomes a call, is a span too.
func TestMethodNotFound(t *testing.T) {
	e := newEnv(t, nil, nil)
	e.handle(context.Background(), modern(1, "no/such", nil, nil))
	s := e.span()
	if s.Name() != "no/such" || s.Status().Code != codes.Error {
		t.Errorf("span %q %v", s.Name(), s.Status())
	}
	wantAttrs(t, "span", attrsOf(s.Attributes()), map[string]string{"error.type": "-32601", "mcp.method.name": "no/such"})
}

// A timeout (Options.CallTimeout): -32603, told from other internal errors
// by mcpwire.outcome.
func TestTimeout(t *testing.T) {
	e := newEnv(t, &mcp.Options{CallTimeout: 20 * time.Millisecond}, nil, waitTool)
	e.handle(context.Background(), callTool(1, "wait", nil))
	wantAttrs(t, "span", attrsOf(e.span().Attributes()), map[string]string{
		"error.type": "-32603", "rpc.response.status_code": "-32603", "mcpwire.outcome": "timeout",
	})
}

// A request whose exchange ends first is cancelled: error.type cancelled,
// no status code.
func TestCancelled(t *testing.T) {
	e := newEnv(t, nil, nil, waitTool)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if r := e.handle(ctx, callTool(1, "wait", nil)); r != nil {
		t.Fatalf("answered %+v", r)
	}
	s := e.span()
	if s.Status().Code != codes.Error {
		t.Errorf("status %v", s.Status())
	}
	wantAttrs(t, "span", attrsOf(s.Attributes()), map[string]string{
		"error.type": "cancelled", "rpc.response.status_code": "-", "mcpwire.outcome": "cancelled",
	})
	if n, _ := sum(t, e.collect()["mcpwire.server.active_requests"], "active"); n != 0 {
		t.Errorf("active %d after the cancel", n)
	}
}

// An input_required round: no error, one round counted.
func TestInputRequired(t *testing.T) {
	e := newEnv(t, nil, nil, asksTool)
	r := e.handle(context.Background(), callTool(1, "asks", nil))
	if r.Error != nil || !strings.Contains(string(r.Result), `"input_required"`) {
		t.Fatalf("response %s %+v", r.Result, r.Error)
	}
	s := e.span()
	if s.Status().Code != codes.Unset {
		t.Errorf("status %v", s.Status())
	}
	wantAttrs(t, "span", attrsOf(s.Attributes()), map[string]string{"mcpwire.outcome": "input_required", "error.type": "-"})
	n, attrs := sum(t, e.collect()["mcpwire.server.input_required"], "input_required")
	if n != 1 || attrs["gen_ai.tool.name"] != "asks" || attrs["mcp.method.name"] != "tools/call" {
		t.Errorf("input_required %d %v", n, attrs)
	}
	e.noSecret()
}

// An overload over stdio: MaxConcurrentCalls 1 and MaxQueuedCalls 1 leave
// no room for a third call; the overload counter names the limit, the
// span says -32603 overloaded, and the transport is a pipe.
func TestOverload(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	hold := rawTool("hold", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		started <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
		}
		return tool.TextResult("done"), nil
	})
	e := newEnv(t, &mcp.Options{MaxConcurrentCalls: 1, MaxQueuedCalls: 1}, nil, hold)
	c := serveStdio(t, e.srv)
	c.call(t, &jsonrpc.Request{ID: jsonrpc.Int64ID(0), Method: "initialize",
		Params: json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)})
	for id := int64(1); id <= 2; id++ {
		c.send(t, &jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: "tools/call", Params: json.RawMessage(`{"name":"hold"}`)})
	}
	<-started
	if r := c.call(t, &jsonrpc.Request{ID: jsonrpc.Int64ID(3), Method: "tools/call", Params: json.RawMessage(`{"name":"hold"}`)}); r.Error == nil {
		t.Fatalf("third call answered %s", r.Result)
	}
	close(release)
	c.await(t, 1)
	c.await(t, 2)
	c.close(t)

	var overloaded sdktrace.ReadOnlySpan
	for _, s := range e.spans.Ended() {
		if attrsOf(s.Attributes())["jsonrpc.request.id"] == "3" {
			overloaded = s
		}
		wantAttrs(t, s.Name(), attrsOf(s.Attributes()), map[string]string{
			"network.transport": "pipe", "network.protocol.name": "-", "mcpwire.protocol.era": "legacy", "mcp.protocol.version": "2025-11-25",
		})
	}
	if overloaded == nil {
		t.Fatal("no span for the refused call")
	}
	wantAttrs(t, "overloaded", attrsOf(overloaded.Attributes()), map[string]string{"error.type": "-32603", "mcpwire.outcome": "overloaded"})
	n, attrs := sum(t, e.collect()["mcpwire.server.overloads"], "overloads")
	if n != 1 || attrs["mcpwire.limit"] != "MaxQueuedCalls" || attrs["mcp.method.name"] != "tools/call" || attrs["network.transport"] != "pipe" {
		t.Errorf("overloads %d %v", n, attrs)
	}
}

// A transport's own refusal (the HTTP helper's 503) is counted too.
func TestTransportOverload(t *testing.T) {
	e := newEnv(t, nil, nil)
	overload.Report(context.Background(), e.srv, "MaxRequests", "", mcp.TransportHTTP)
	n, attrs := sum(t, e.collect()["mcpwire.server.overloads"], "overloads")
	if n != 1 || attrs["mcpwire.limit"] != "MaxRequests" || attrs["network.transport"] != "tcp" {
		t.Errorf("overloads %d %v", n, attrs)
	}
	if _, ok := attrs["mcp.method.name"]; ok {
		t.Errorf("a refusal unread has a method: %v", attrs)
	}
}

// The span's parent is the trace context of params._meta; an ambient span
// in the context (an HTTP server span) is linked, and stays the parent
// when _meta has none. The handler's context holds the request's span.
func TestPropagation(t *testing.T) {
	const (
		traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
		spanID  = "00f067aa0ba902b7"
	)
	inHandler := make(chan trace.SpanContext, 2)
	probe := rawTool("probe", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		inHandler <- trace.SpanContextFromContext(ctx)
		return tool.TextResult("ok"), nil
	})
	e := newEnv(t, nil, nil, probe)
	ambientCtx, ambient := e.tp.Tracer("http").Start(context.Background(), "POST")
	defer ambient.End()

	e.handle(ambientCtx, callTool(1, "probe", map[string]any{
		"traceparent": "00-" + traceID + "-" + spanID + "-01", "tracestate": "rojo=00f067aa0ba902b7",
	}))
	s := e.span()
	if got := s.Parent(); got.TraceID().String() != traceID || got.SpanID().String() != spanID || !got.IsRemote() {
		t.Errorf("parent %v, want the remote span of _meta", got)
	}
	if got := s.SpanContext().TraceState().String(); got != "rojo=00f067aa0ba902b7" {
		t.Errorf("tracestate %q", got)
	}
	if links := s.Links(); len(links) != 1 || links[0].SpanContext.SpanID() != ambient.SpanContext().SpanID() {
		t.Errorf("links %+v, want the ambient span", links)
	}
	if got := <-inHandler; got.SpanID() != s.SpanContext().SpanID() {
		t.Errorf("the handler's span %v, want the request's %v", got.SpanID(), s.SpanContext().SpanID())
	}

	e.spans.Reset()
	e.handle(ambientCtx, callTool(2, "probe", nil))
	<-inHandler
	s = e.span()
	if s.Parent().SpanID() != ambient.SpanContext().SpanID() || len(s.Links()) != 0 {
		t.Errorf("without _meta trace context: parent %v links %v, want the ambient span as parent", s.Parent(), s.Links())
	}
}

// The attribute names are the conventions' (mcp.md of the GenAI semantic
// conventions), spelled out here so that a change of the semconv package
// the code uses is noticed.
func TestConventionNames(t *testing.T) {
	e := newEnv(t, nil, nil, okTool)
	ep := e.srv.NewEndpoint(mcp.EndpointOptions{SessionID: "abc123"})
	defer ep.Close()
	got := make(chan *jsonrpc.Response, 1)
	reply := func(m jsonrpc.Message) {
		if r, ok := m.(*jsonrpc.Response); ok {
			got <- r
		}
	}
	ep.Handle(context.Background(), &jsonrpc.Request{ID: jsonrpc.StringID("init-1"), Method: "initialize",
		Params: json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)}, reply)
	<-got
	s := e.span()
	if s.Name() != "initialize" {
		t.Errorf("name %q", s.Name())
	}
	wantAttrs(t, "initialize", attrsOf(s.Attributes()), map[string]string{
		"mcp.method.name": "initialize", "jsonrpc.request.id": "init-1", "mcp.session.id": "abc123",
		"mcp.protocol.version": "2025-06-18", "gen_ai.operation.name": "-", "gen_ai.tool.name": "-",
	})
}

// stdio is a client over an in-memory pipe served by Serve.
type stdio struct {
	conn *transport.Stream
	done chan error
}

func serveStdio(t *testing.T, srv *mcp.Server) *stdio {
	a, b := transport.Pipe(transport.Options{})
	c := &stdio{conn: b, done: make(chan error, 1)}
	go func() { c.done <- srv.Serve(context.Background(), a) }()
	t.Cleanup(func() { c.conn.Close() })
	return c
}

func (c *stdio) send(t *testing.T, m jsonrpc.Message) {
	t.Helper()
	if err := c.conn.Write(context.Background(), m); err != nil {
		t.Fatal(err)
	}
}

func (c *stdio) await(t *testing.T, id int64) *jsonrpc.Response {
	t.Helper()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		m, err := c.conn.Read(ctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if r, ok := m.(*jsonrpc.Response); ok && r.ID.Key() == jsonrpc.Int64ID(id).Key() {
			return r
		}
	}
}

func (c *stdio) call(t *testing.T, req *jsonrpc.Request) *jsonrpc.Response {
	t.Helper()
	c.send(t, req)
	n, _ := json.Marshal(req.ID)
	var id int64
	json.Unmarshal(n, &id)
	return c.await(t, id)
}

func (c *stdio) close(t *testing.T) {
	t.Helper()
	c.conn.Close()
	if err := <-c.done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}
