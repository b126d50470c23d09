package gateway

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/internal/uritemplate"
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

	mu    sync.Mutex        // guards tools and serialises syncs
	tools map[string]string // the gateway's names of this upstream's tools: their descriptors, encoded
}

// connect starts the client.
func (up *upstream) connect(ctx context.Context) error {
	t, end, err := up.transportOf()
	if err != nil {
		return err
	}
	c, err := client.Connect(ctx, t, &client.Options{
		ClientInfo: protocol.Implementation{Name: "mcpwire-gateway", Version: "0.1.0"},
		Logger:     up.g.log.With("upstream", up.cfg.Name),
	})
	if err != nil {
		end()
		return err
	}
	up.conn.Store(&conn{c: c, end: end})
	return nil
}

// conn is one connection to the upstream: its client, and what ends what
// it started (an in-process server's Serve).
type conn struct {
	c   *client.Client
	end func()
}

func (k *conn) close() error {
	err := k.c.Close()
	k.end()
	return err
}

// client is the current connection's client.
func (up *upstream) client() *client.Client { return up.conn.Load().c }

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

// mirror registers what the upstream serves with the gateway's server.
func (up *upstream) mirror(ctx context.Context) error {
	caps := up.client().Info().Capabilities
	if caps.Tools != nil {
		if err := up.syncTools(ctx); err != nil {
			return err
		}
	}
	if caps.Prompts != nil {
		if err := up.mirrorPrompts(ctx, caps.Completions != nil); err != nil {
			return err
		}
	}
	if caps.Resources != nil {
		if err := up.mirrorResources(ctx, caps.Completions != nil); err != nil {
			return err
		}
	}
	wctx, stop := context.WithCancel(context.Background())
	up.stop, up.done = stop, make(chan struct{})
	go up.supervise(wctx, caps.Tools != nil)
	return nil
}

// syncTools lists the upstream's tools and makes the gateway's match:
// new ones added, gone ones removed (the server tells its clients).
func (up *upstream) syncTools(ctx context.Context) error {
	up.mu.Lock()
	defer up.mu.Unlock()
	var listed []*protocol.Tool
	for t, err := range up.client().Tools(client.Fresh(ctx)) { // past the cache: a sync follows a change
		if err != nil {
			return fmt.Errorf("listing tools: %w", err)
		}
		listed = append(listed, t)
	}
	now := map[string]string{}
	for _, t := range listed {
		name := up.name(t.Name)
		desc, _ := json.Marshal(t)
		now[name] = string(desc)
		old, had := up.tools[name]
		switch {
		case had && old == now[name]:
			continue // unchanged: the gateway's clients hear nothing
		case had:
			up.g.srv.RemoveTool(name)
		default:
			if err := up.names.claim("tool", name, up.cfg.Name); err != nil {
				return err
			}
		}
		if err := up.g.srv.AddTool(up.proxyTool(t, name)); err != nil {
			return err
		}
	}
	for old := range up.tools {
		if _, ok := now[old]; !ok {
			up.g.srv.RemoveTool(old)
			up.names.release("tool", old)
		}
	}
	up.tools = now
	return nil
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
			ctx = client.WithProgress(ctx, func(p protocol.ProgressNotificationParams) {
				var total float64
				if p.Total != nil {
					total = *p.Total
				}
				mcp.ReportProgress(ctx, p.Progress, total, p.Message)
			})
			r, err := up.client().CallTool(ctx, upstreamName, args)
			if err != nil {
				return nil, upstreamError(up.cfg.Name, err)
			}
			return resultOf(r), nil
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

// mirrorPrompts registers the upstream's prompts, namespaced.
func (up *upstream) mirrorPrompts(ctx context.Context, completes bool) error {
	for p, err := range up.client().Prompts(ctx) {
		if err != nil {
			return fmt.Errorf("listing prompts: %w", err)
		}
		name := up.name(p.Name)
		if err := up.names.claim("prompt", name, up.cfg.Name); err != nil {
			return err
		}
		upstreamName := p.Name
		mp := mcp.Prompt{Name: name, Title: p.Title, Description: p.Description, Icons: p.Icons, Meta: metaOf(p.Meta),
			Get: func(ctx context.Context, args map[string]string) (*mcp.PromptResult, error) {
				r, err := up.client().GetPrompt(ctx, upstreamName, args)
				if err != nil {
					return nil, upstreamError(up.cfg.Name, err)
				}
				out := &mcp.PromptResult{Description: r.Description}
				for _, m := range r.Messages {
					out.Messages = append(out.Messages, mcp.PromptMessage{Role: m.Role, Content: m.Content.Content()})
				}
				return out, nil
			}}
		for _, a := range p.Arguments {
			mp.Arguments = append(mp.Arguments, mcp.PromptArgument{Name: a.Name, Title: a.Title, Description: a.Description,
				Required: a.Required != nil && *a.Required})
			if completes {
				if mp.Complete == nil {
					mp.Complete = map[string]mcp.CompleteFunc{}
				}
				mp.Complete[a.Name] = up.completer(protocol.CompletionReference{Prompt: &protocol.PromptReference{Name: upstreamName}}, a.Name)
			}
		}
		if err := up.g.srv.AddPrompt(mp); err != nil {
			return err
		}
	}
	return nil
}

// mirrorResources registers the upstream's resources under their own
// URIs, and its templates.
func (up *upstream) mirrorResources(ctx context.Context, completes bool) error {
	read := func(ctx context.Context, uri string) ([]mcp.ResourceContents, error) {
		r, err := up.client().ReadResource(ctx, uri)
		if err != nil {
			return nil, upstreamError(up.cfg.Name, err)
		}
		return r.Contents, nil
	}
	for r, err := range up.client().Resources(ctx) {
		if err != nil {
			return fmt.Errorf("listing resources: %w", err)
		}
		if slices.Contains(up.cfg.ExcludeResources, r.URI) {
			continue
		}
		if err := up.names.claim("resource", r.URI, up.cfg.Name); err != nil {
			return fmt.Errorf("%w (exclude it from one: excludeResources)", err)
		}
		if err := up.g.srv.AddResource(mcp.Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description,
			MimeType: r.MimeType, Size: r.Size, Icons: r.Icons, Annotations: r.Annotations, Meta: metaOf(r.Meta), Read: read}); err != nil {
			return err
		}
	}
	for t, err := range up.client().ResourceTemplates(ctx) {
		if err != nil {
			return fmt.Errorf("listing resource templates: %w", err)
		}
		if err := up.names.claim("resource template", t.URITemplate, up.cfg.Name); err != nil {
			return err
		}
		mt := mcp.ResourceTemplate{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description,
			MimeType: t.MimeType, Icons: t.Icons, Annotations: t.Annotations, Meta: metaOf(t.Meta),
			Read: func(ctx context.Context, uri string, _ map[string]string) ([]mcp.ResourceContents, error) {
				return read(ctx, uri)
			}}
		if completes {
			if parsed, err := uritemplate.Parse(t.URITemplate); err == nil {
				mt.Complete = map[string]mcp.CompleteFunc{}
				for _, v := range parsed.Vars() {
					mt.Complete[v] = up.completer(protocol.CompletionReference{Resource: &protocol.ResourceTemplateReference{URI: t.URITemplate}}, v)
				}
			}
		}
		if err := up.g.srv.AddResourceTemplate(mt); err != nil {
			return err
		}
	}
	return nil
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
