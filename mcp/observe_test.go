package mcp_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/overload"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// recorder is an Observer that keeps what it is told. Its StartRequest
// puts a value in the context, which EndRequest and the handler must see.
type recorder struct {
	mu        sync.Mutex
	starts    map[string]mcp.ObservedRequest // by id key
	overloads []mcp.Overload
	ends      chan observed
}

type observed struct {
	req    mcp.ObservedRequest
	end    mcp.RequestEnd
	ctxTag any
}

type tagKey struct{}

func newRecorder() *recorder {
	return &recorder{starts: map[string]mcp.ObservedRequest{}, ends: make(chan observed, 100)}
}

func (r *recorder) StartRequest(ctx context.Context, req *mcp.ObservedRequest) context.Context {
	r.mu.Lock()
	r.starts[req.ID.Key()] = *req
	r.mu.Unlock()
	return context.WithValue(ctx, tagKey{}, "started "+req.ID.Key())
}

func (r *recorder) EndRequest(ctx context.Context, req *mcp.ObservedRequest, end mcp.RequestEnd) {
	r.mu.Lock()
	_, started := r.starts[req.ID.Key()]
	r.mu.Unlock()
	if !started {
		panic("EndRequest without StartRequest for " + req.ID.String())
	}
	r.ends <- observed{req: *req, end: end, ctxTag: ctx.Value(tagKey{})}
}

func (r *recorder) Overload(_ context.Context, o mcp.Overload) {
	r.mu.Lock()
	r.overloads = append(r.overloads, o)
	r.mu.Unlock()
}

// next returns the next request that ended.
func (r *recorder) next(t *testing.T) observed {
	t.Helper()
	select {
	case o := <-r.ends:
		if want := "started " + o.req.ID.Key(); o.ctxTag != want {
			t.Errorf("EndRequest's context: tag %v, want %q (the context StartRequest returned)", o.ctxTag, want)
		}
		return o
	case <-time.After(5 * time.Second):
		t.Fatal("no EndRequest")
		return observed{}
	}
}

// none asserts that no request ends for a while.
func (r *recorder) none(t *testing.T) {
	t.Helper()
	select {
	case o := <-r.ends:
		t.Fatalf("unexpected EndRequest for %s %s", o.req.Method, o.req.ID)
	case <-time.After(50 * time.Millisecond):
	}
}

// Every outcome a request can have, over stdio in the legacy era: the
// observer hears of it once, with the method, the target and the era, and
// the context its StartRequest returned reaches the handler.
func TestObserverOutcomes(t *testing.T) {
	rec := newRecorder()
	started := make(chan struct{}, 10)
	release := make(chan struct{})
	seen := make(chan any, 1)
	tools := []tool.Tool{
		rawTool("ok", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
			seen <- ctx.Value(tagKey{})
			return tool.TextResult("ok"), nil
		}),
		rawTool("fails", func(context.Context, json.RawMessage) (*tool.Result, error) {
			return nil, errors.New("secret-result-value")
		}),
		rawTool("slow", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}),
	}
	srv := newServer(t, &mcp.Options{Observer: rec, CallTimeout: time.Second, MaxConcurrentCalls: 1, MaxQueuedCalls: 1}, tools...)
	c := start(t, srv)
	c.initialize("2025-11-25")
	if o := rec.next(t); o.req.Method != "initialize" || o.end.Outcome != mcp.OutcomeResult || o.req.ProtocolVersion != "2025-11-25" || o.req.Era != protocol.Legacy {
		t.Fatalf("initialize: %+v %+v", o.req, o.end)
	}

	call := func(id int64, name string) *jsonrpc.Request {
		return &jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: "tools/call",
			Params: json.RawMessage(`{"name":"` + name + `","arguments":{"secret":"secret-argument-value"}}`)}
	}
	check := func(o observed, method, name string, want mcp.Outcome, code int64) {
		t.Helper()
		if o.req.Method != method || o.req.Tool != name || o.end.Outcome != want || o.end.Code != code {
			t.Errorf("%s %s: ended %v (code %d), want %v (code %d)", method, name, o.end.Outcome, o.end.Code, want, code)
		}
		if o.req.Transport != mcp.TransportStream || o.req.Era != protocol.Legacy || o.req.ProtocolVersion != "2025-11-25" {
			t.Errorf("%s: transport %q, era %v, version %q", method, o.req.Transport, o.req.Era, o.req.ProtocolVersion)
		}
		if o.end.Duration <= 0 {
			t.Errorf("%s: duration %v", method, o.end.Duration)
		}
	}

	c.send2(call(1, "ok"))
	check(rec.next(t), "tools/call", "ok", mcp.OutcomeResult, 0)
	if tag := <-seen; tag != "started 1" {
		t.Errorf("the handler's context: tag %v, want the observer's", tag)
	}

	c.send2(call(2, "fails"))
	check(rec.next(t), "tools/call", "fails", mcp.OutcomeToolError, 0)

	c.send2(call(3, "missing"))
	check(rec.next(t), "tools/call", "missing", mcp.OutcomeError, jsonrpc.CodeInvalidParams)

	c.send2(&jsonrpc.Request{ID: jsonrpc.Int64ID(4), Method: "no/such"})
	check(rec.next(t), "no/such", "", mcp.OutcomeError, jsonrpc.CodeMethodNotFound)

	c.send2(call(5, "slow")) // CallTimeout
	o := rec.next(t)
	check(o, "tools/call", "slow", mcp.OutcomeTimedOut, jsonrpc.CodeInternalError)
	if o.end.Reason != "timeout" {
		t.Errorf("timeout reason %q", o.end.Reason)
	}

	c.send(call(6, "slow"))
	c.send(&jsonrpc.Notification{Method: "notifications/cancelled", Params: json.RawMessage(`{"requestId":6,"reason":"bored"}`)})
	o = rec.next(t)
	check(o, "tools/call", "slow", mcp.OutcomeCancelled, 0)
	if o.end.Reason != mcp.ReasonCancelled {
		t.Errorf("cancel reason %q", o.end.Reason)
	}

	// The overload on a session of its own: on this one the calls above
	// may still hold their slots for a moment after they were answered
	// (a timed-out or cancelled call's until its handler or its worker is
	// done with it), which is not what this part is about.
	orec := newRecorder()
	osrv := newServer(t, &mcp.Options{Observer: orec, MaxConcurrentCalls: 1, MaxQueuedCalls: 1}, blockingTool("block", started, release))
	oc := start(t, osrv)
	oc.initialize("2025-11-25")
	orec.next(t)              // initialize
	oc.send(call(7, "block")) // runs
	<-started
	oc.send(call(8, "block")) // waits
	oc.send2(call(9, "block"))
	o = orec.next(t)
	check(o, "tools/call", "block", mcp.OutcomeOverloaded, jsonrpc.CodeInternalError)
	orec.mu.Lock()
	overloads := orec.overloads
	orec.mu.Unlock()
	if len(overloads) != 1 || overloads[0] != (mcp.Overload{Limit: "MaxQueuedCalls", Method: "tools/call", Transport: mcp.TransportStream}) {
		t.Errorf("overloads %+v", overloads)
	}
	close(release)
	oc.await(jsonrpc.Int64ID(7))
	oc.await(jsonrpc.Int64ID(8))
	orec.next(t)
	orec.next(t)
	orec.none(t)

	c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(10), Method: "tools/list", Params: json.RawMessage(`[1]`)})
	c.await(jsonrpc.Int64ID(10))
	if o := rec.next(t); o.end.Outcome != mcp.OutcomeError || o.req.Era != 0 || o.req.Method != "tools/list" {
		t.Errorf("params not an object: %+v %+v", o.req, o.end)
	}
	rec.none(t)
}

// A modern request over an endpoint: the transport and session the
// endpoint names, the trace context of its _meta, an input_required round,
// and the refusal of a closed endpoint.
func TestObserverEndpointModern(t *testing.T) {
	rec := newRecorder()
	srv := newServer(t, &mcp.Options{Observer: rec}, greetTool())
	ep := srv.NewEndpoint(mcp.EndpointOptions{Stateless: true, Transport: "custom", SessionID: "s-1"})
	send := func(req *jsonrpc.Request) *jsonrpc.Response {
		t.Helper()
		got := make(chan *jsonrpc.Response, 1)
		ep.Handle(context.Background(), req, func(m jsonrpc.Message) {
			if r, ok := m.(*jsonrpc.Response); ok {
				got <- r
			}
		})
		select {
		case r := <-got:
			return r
		case <-time.After(5 * time.Second):
			t.Fatal("no response")
			return nil
		}
	}
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	req := modernCall(1, "greet", map[string]any{"who": "secret-argument-value"}, nil)
	var p map[string]any
	json.Unmarshal(req.Params, &p)
	p["_meta"].(map[string]any)["traceparent"] = tp
	p["_meta"].(map[string]any)["tracestate"] = "rojo=00f067aa0ba902b7"
	req.Params, _ = json.Marshal(p)
	res := inputRequired(t, send(req))
	o := rec.next(t)
	if o.req.Era != protocol.Modern || o.req.ProtocolVersion != "2026-07-28" || o.req.Transport != "custom" || o.req.SessionID != "s-1" || o.req.Tool != "greet" {
		t.Errorf("request %+v", o.req)
	}
	if o.end.Outcome != mcp.OutcomeInputRequired || o.end.Rounds != 0 {
		t.Errorf("end %+v, want input_required after 0 rounds", o.end)
	}
	if got := o.req.MetaString("traceparent"); got != tp {
		t.Errorf("traceparent %q", got)
	}
	if got := o.req.MetaString("tracestate"); got != "rojo=00f067aa0ba902b7" {
		t.Errorf("tracestate %q", got)
	}
	if got := o.req.MetaString(protocol.MetaClientCapabilities); got != "" {
		t.Errorf("MetaString of an object: %q", got)
	}
	if keys := strings.Join(o.req.MetaKeys(), ","); !strings.Contains(keys, "traceparent") {
		t.Errorf("MetaKeys %s", keys)
	}

	// The second round answers the questions.
	answers := map[string]any{
		"user_name":    map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}},
		"client_roots": map[string]any{"roots": []any{}},
	}
	if len(res.InputRequests) != 2 {
		t.Fatalf("input requests %+v", res.InputRequests)
	}
	req = modernCall(2, "greet", map[string]any{"who": "secret-argument-value"}, map[string]any{"inputResponses": answers, "requestState": res.RequestState})
	if r := send(req); r.Error != nil {
		t.Fatalf("second round: %+v", r.Error)
	}
	if o := rec.next(t); o.end.Outcome != mcp.OutcomeResult || o.end.Rounds != 1 {
		t.Errorf("second round %+v, want a result after 1 round", o.end)
	}

	ep.Close()
	r := send(&jsonrpc.Request{ID: jsonrpc.Int64ID(3), Method: "ping"})
	if r.Error == nil {
		t.Fatal("closed endpoint answered ping")
	}
	if o := rec.next(t); o.req.Method != "ping" || o.end.Outcome != mcp.OutcomeError || o.req.Transport != "custom" {
		t.Errorf("closed endpoint: %+v %+v", o.req, o.end)
	}
	rec.none(t)
}

// The targets an observer is told of, per method.
func TestObserverTargets(t *testing.T) {
	rec := newRecorder()
	srv := newServer(t, &mcp.Options{Observer: rec})
	c := start(t, srv)
	c.initialize("2025-11-25")
	rec.next(t)
	for i, tt := range []struct {
		method, params string
		prompt, uri    string
	}{
		{"prompts/get", `{"name":"p1","arguments":{"a":"secret"}}`, "p1", ""},
		{"resources/read", `{"uri":"file:///x"}`, "", "file:///x"},
		{"completion/complete", `{"ref":{"type":"ref/prompt","name":"p2"},"argument":{"name":"a","value":"secret"}}`, "p2", ""},
		{"completion/complete", `{"ref":{"type":"ref/resource","uri":"file:///{path}"},"argument":{"name":"path","value":"secret"}}`, "", "file:///{path}"},
	} {
		c.send2(&jsonrpc.Request{ID: jsonrpc.Int64ID(int64(i + 1)), Method: tt.method, Params: json.RawMessage(tt.params)})
		o := rec.next(t)
		if o.req.Prompt != tt.prompt || o.req.ResourceURI != tt.uri {
			t.Errorf("%s %s: prompt %q, uri %q", tt.method, tt.params, o.req.Prompt, o.req.ResourceURI)
		}
	}
}

// A duplicate id is refused, and observed, without disturbing the call
// that holds it.
func TestObserverDuplicateID(t *testing.T) {
	rec := newRecorder()
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	srv := newServer(t, &mcp.Options{Observer: rec}, blockingTool("block", started, release))
	c := start(t, srv)
	c.initialize("2025-11-25")
	rec.next(t)
	req := &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(`{"name":"block"}`)}
	c.send(req)
	<-started
	if r := c.send2(req); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidRequest {
		t.Fatalf("duplicate: %+v", r)
	}
	if o := rec.next(t); o.end.Outcome != mcp.OutcomeError || o.end.Code != jsonrpc.CodeInvalidRequest {
		t.Errorf("duplicate %+v", o.end)
	}
	close(release)
	c.await(req.ID)
	if o := rec.next(t); o.end.Outcome != mcp.OutcomeResult {
		t.Errorf("original %+v", o.end)
	}
}

// A transport's report of an overload reaches the observer, and is
// harmless without one.
func TestReportOverload(t *testing.T) {
	rec := newRecorder()
	o := mcp.Overload{Limit: "MaxRequests", Transport: mcp.TransportHTTP}
	overload.Report(context.Background(), newServer(t, &mcp.Options{Observer: rec}), o.Limit, o.Method, o.Transport)
	overload.Report(context.Background(), newServer(t, nil), o.Limit, o.Method, o.Transport)
	if len(rec.overloads) != 1 || rec.overloads[0] != o {
		t.Errorf("overloads %+v", rec.overloads)
	}
}

func TestOutcomeString(t *testing.T) {
	for o, want := range map[mcp.Outcome]string{
		mcp.OutcomeResult: "result", mcp.OutcomeToolError: "tool_error", mcp.OutcomeInputRequired: "input_required",
		mcp.OutcomeError: "error", mcp.OutcomeOverloaded: "overloaded", mcp.OutcomeTimedOut: "timeout",
		mcp.OutcomeCancelled: "cancelled", 0: "unknown",
	} {
		if o.String() != want {
			t.Errorf("%d: %q, want %q", o, o.String(), want)
		}
	}
}

// nopObserver observes nothing: what observing costs the server itself.
type nopObserver struct{}

func (nopObserver) StartRequest(ctx context.Context, _ *mcp.ObservedRequest) context.Context {
	return ctx
}
func (nopObserver) EndRequest(context.Context, *mcp.ObservedRequest, mcp.RequestEnd) {}
func (nopObserver) Overload(context.Context, mcp.Overload)                           {}

// BenchmarkToolsCallEchoObserved is BenchmarkToolsCallEcho with an
// observer that does nothing: the cost of the observation itself (without
// an observer the server pays only nil checks).
func BenchmarkToolsCallEchoObserved(b *testing.B) {
	srv := newServer(b, &mcp.Options{Observer: nopObserver{}}, echoTool())
	c := startBench(b, srv)
	params := json.RawMessage(`{"name":"echo","arguments":{"text":"hello"}}`)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		id := jsonrpc.Int64ID(int64(i + 1))
		if err := c.Write(context.Background(), &jsonrpc.Request{ID: id, Method: "tools/call", Params: params}); err != nil {
			b.Fatal(err)
		}
		if _, err := c.Read(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
