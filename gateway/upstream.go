package gateway

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// upstream is one server behind the gateway and what of it the gateway
// serves.
type upstream struct {
	g     *Gateway
	cfg   Upstream
	sep   string
	flat  bool
	names *names

	conn atomic.Pointer[conn] // the current connection
	down atomic.Bool          // the upstream stopped answering; its tools are withdrawn
	stop context.CancelFunc   // ends supervise
	done chan struct{}        // closed when supervise has returned

	mu        sync.Mutex // guards what is served and serialises syncs
	tools     served     // this upstream's tools, by the gateway's names
	prompts   served
	resources served // by URI
	templates served // by URI template

	flightMu sync.Mutex
	inFlight map[*relayed]struct{} // the calls in flight to it (see relay.go)
	urlIDs   urlIDs                // a URL elicitation's id upstream -> the caller's
}

// connect starts the client.
func (up *upstream) connect(ctx context.Context) error {
	t, end, err := up.transportOf()
	if err != nil {
		return err
	}
	o := &client.Options{
		ClientInfo:     protocol.Implementation{Name: "mcpwire-gateway", Version: "0.1.0"},
		Logger:         up.g.log.With("upstream", up.cfg.Name),
		Tasks:          true, // the upstream's tasks are followed; the caller sees the gateway's
		OnNotification: up.notified,
	}
	if v := up.cfg.ProtocolVersion; v != "" {
		o.Era, o.ProtocolVersion = protocol.EraOfVersion(v), v
	}
	up.handlers(o)
	c, err := client.Connect(ctx, t, o)
	if err != nil {
		end()
		return err
	}
	if c.Info().Capabilities.Logging != nil {
		// Everything: each caller's own level is applied as it is relayed.
		if err := c.SetLogLevel(ctx, protocol.LevelDebug); err != nil {
			up.g.log.Warn("gateway: asking an upstream for its log messages", "upstream", up.cfg.Name, "error", err.Error())
		}
	}
	up.conn.Store(&conn{c: c, end: end, modern: c.Info().Era == protocol.Modern})
	return nil
}

// conn is one connection to the upstream: its client, and what ends what
// it started (an in-process server's Serve).
type conn struct {
	c      *client.Client
	end    func()
	modern bool // the era settled is 2026-07-28
}

func (k *conn) close() error {
	err := k.c.Close()
	k.end()
	return err
}

// client is the current connection's client.
func (up *upstream) client() *client.Client { return up.conn.Load().c }

// modern reports whether the current connection speaks 2026-07-28.
func (up *upstream) modern() bool { return up.conn.Load().modern }

func (up *upstream) close() error {
	if up.stop != nil {
		up.stop()
		<-up.done
	}
	if k := up.conn.Load(); k != nil {
		return k.close()
	}
	return nil
}

// name is an upstream name as the gateway serves it.
func (up *upstream) name(n string) string {
	if up.flat {
		return n
	}
	return up.cfg.Name + up.sep + n
}

// proxyTool is t served as name: a call goes to the upstream, with the
// caller's progress relayed and its cancellation passed on (the call's
// context).
func (up *upstream) proxyTool(t *protocol.Tool, name string) tool.Tool {
	upstreamName := t.Name
	return tool.Tool{
		Name: name, Title: t.Title, Description: t.Description,
		InputSchema: t.InputSchema, OutputSchema: t.OutputSchema,
		Annotations: t.Annotations, Icons: t.Icons, Meta: metaOf(t.Meta),
		SensitiveHeaderNames: []string{}, // the upstream's descriptor is the upstream's to judge
		Handler: func(ctx context.Context, args json.RawMessage) (*tool.Result, error) {
			v, err := up.relay(ctx, func(ctx context.Context) (any, error) {
				return up.client().CallTool(ctx, upstreamName, args)
			})
			if err != nil {
				return nil, up.failed(err)
			}
			return resultOf(v.(*protocol.CallToolResult)), nil
		},
	}
}

// resultOf is an upstream's result as the gateway's tool returns it.
func resultOf(r *protocol.CallToolResult) *tool.Result {
	out := &tool.Result{IsError: r.IsError != nil && *r.IsError}
	for _, b := range r.Content {
		if c := b.Content(); c != nil {
			out.Content = append(out.Content, c)
		}
	}
	if r.StructuredContent != nil {
		out.Structured = r.StructuredContent
	}
	return out
}

// failed is the error a relayed call's caller gets: what the gateway
// needs of the caller (input_required, a capability it lacks) as it is,
// anything else as upstreamError.
func (up *upstream) failed(err error) error {
	var ce *ask.CapabilityError
	if errors.Is(err, ask.ErrInputRequired) || errors.As(err, &ce) || errors.Is(err, context.Canceled) {
		return err
	}
	return upstreamError(up.cfg.Name, err)
}

// upstreamError is what the gateway's caller gets when the upstream's
// call failed: the upstream's JSON-RPC error as it is (an unknown tool,
// invalid params), anything else (the upstream gone, a gate's refusal)
// -32603 naming the upstream.
func upstreamError(name string, err error) error {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je
	}
	return jsonrpc.NewError(jsonrpc.CodeInternalError, "upstream %q: %s", name, err.Error()).
		WithData(map[string]string{"reason": "upstream", "upstream": name})
}

// completer routes the completion of argument of ref to the upstream.
func (up *upstream) completer(ref protocol.CompletionReference, argument string) mcp.CompleteFunc {
	return func(ctx context.Context, req mcp.CompleteRequest) (mcp.CompleteResult, error) {
		c, err := up.client().Complete(ctx, ref, argument, req.Value)
		if err != nil {
			return mcp.CompleteResult{}, upstreamError(up.cfg.Name, err)
		}
		out := mcp.CompleteResult{Values: c.Values, HasMore: c.HasMore != nil && *c.HasMore}
		if c.Total != nil {
			out.Total = int(*c.Total)
		}
		return out, nil
	}
}

// metaOf is a descriptor's _meta as the registries take it.
func metaOf(m protocol.Meta) map[string]any {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
