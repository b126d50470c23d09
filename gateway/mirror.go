package gateway

import (
	"context"
	"fmt"
	"iter"
	"slices"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/internal/uritemplate"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
)

// served are what the gateway serves of one kind from an upstream: the
// gateway's name (or URI) of each, and its descriptor as the upstream
// listed it, encoded (to tell a changed one from one that stayed).
type served map[string]string

// mirror registers what the upstream serves with the gateway's server,
// and starts following it.
func (up *upstream) mirror(ctx context.Context) error {
	caps := up.client().Info().Capabilities
	if caps.Tools != nil {
		if err := up.syncTools(ctx); err != nil {
			return err
		}
	}
	if caps.Prompts != nil {
		if err := up.syncPrompts(ctx); err != nil {
			return err
		}
	}
	if caps.Resources != nil {
		if err := up.syncResources(ctx); err != nil {
			return err
		}
	}
	wctx, stop := context.WithCancel(context.Background())
	up.stop, up.done = stop, make(chan struct{})
	go up.supervise(wctx)
	return nil
}

// reconcile makes what the gateway serves of kind from the upstream match
// listed: the new ones claimed and added, the changed ones replaced, the
// gone ones removed and released (the server tells its clients of each
// change; one that stayed as it was is not touched). It returns what is
// served now.
func reconcile[T any](up *upstream, kind string, have served, listed iter.Seq2[T, error], key func(T) string,
	add func(T, string) error, remove func(string) bool) (served, error) {
	now := served{}
	for v, err := range listed {
		if err != nil {
			return have, fmt.Errorf("listing %ss: %w", kind, err)
		}
		k := key(v)
		desc, _ := json.Marshal(v)
		now[k] = string(desc)
		old, had := have[k]
		switch {
		case had && old == now[k]:
			continue
		case had:
			remove(k)
		default:
			if err := up.names.claim(kind, k, up.cfg.Name); err != nil {
				if kind == "resource" {
					err = fmt.Errorf("%w (exclude it from one: excludeResources)", err)
				}
				return have, err
			}
		}
		if err := add(v, k); err != nil {
			return have, err
		}
	}
	for k := range have {
		if _, ok := now[k]; !ok {
			remove(k)
			up.names.release(kind, k)
		}
	}
	return now, nil
}

// syncTools lists the upstream's tools (past the cache: a sync follows a
// change) and makes the gateway's match.
func (up *upstream) syncTools(ctx context.Context) error {
	up.mu.Lock()
	defer up.mu.Unlock()
	var err error
	up.tools, err = reconcile(up, "tool", up.tools, up.client().Tools(client.Fresh(ctx)),
		func(t *protocol.Tool) string { return up.name(t.Name) },
		func(t *protocol.Tool, name string) error {
			// Deferred: the caller's call becomes the gateway's task when
			// the upstream's becomes one (relay.go), and not otherwise.
			return up.g.srv.AddTaskTool(up.proxyTool(t, name), mcp.TaskToolOptions{Support: mcp.TaskOptional, Deferred: true})
		}, up.g.srv.RemoveTool)
	return err
}

// syncPrompts lists the upstream's prompts and makes the gateway's match.
func (up *upstream) syncPrompts(ctx context.Context) error {
	completes := up.client().Info().Capabilities.Completions != nil
	up.mu.Lock()
	defer up.mu.Unlock()
	var err error
	up.prompts, err = reconcile(up, "prompt", up.prompts, up.client().Prompts(client.Fresh(ctx)),
		func(p *protocol.Prompt) string { return up.name(p.Name) },
		func(p *protocol.Prompt, name string) error {
			return up.g.srv.AddPrompt(up.proxyPrompt(p, name, completes))
		},
		up.g.srv.RemovePrompt)
	return err
}

// syncResources lists the upstream's resources and templates and makes
// the gateway's match; resources keep their URIs.
func (up *upstream) syncResources(ctx context.Context) error {
	completes := up.client().Info().Capabilities.Completions != nil
	up.mu.Lock()
	defer up.mu.Unlock()
	var err error
	listed := func(yield func(*protocol.Resource, error) bool) {
		for r, err := range up.client().Resources(client.Fresh(ctx)) {
			if err == nil && slices.Contains(up.cfg.ExcludeResources, r.URI) {
				continue
			}
			if !yield(r, err) {
				return
			}
		}
	}
	up.resources, err = reconcile(up, "resource", up.resources, listed,
		func(r *protocol.Resource) string { return r.URI },
		func(r *protocol.Resource, _ string) error {
			return up.g.srv.AddResource(mcp.Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description,
				MimeType: r.MimeType, Size: r.Size, Icons: r.Icons, Annotations: r.Annotations, Meta: metaOf(r.Meta), Read: up.read})
		}, up.g.srv.RemoveResource)
	if err != nil {
		return err
	}
	up.templates, err = reconcile(up, "resource template", up.templates, up.client().ResourceTemplates(client.Fresh(ctx)),
		func(t *protocol.ResourceTemplate) string { return t.URITemplate },
		func(t *protocol.ResourceTemplate, _ string) error {
			return up.g.srv.AddResourceTemplate(up.proxyTemplate(t, completes))
		}, up.g.srv.RemoveResourceTemplate)
	return err
}

// proxyPrompt is p served as name: a get goes to the upstream, as does
// the completion of its arguments when the upstream completes.
func (up *upstream) proxyPrompt(p *protocol.Prompt, name string, completes bool) mcp.Prompt {
	upstreamName := p.Name
	mp := mcp.Prompt{Name: name, Title: p.Title, Description: p.Description, Icons: p.Icons, Meta: metaOf(p.Meta),
		Get: func(ctx context.Context, args map[string]string) (*mcp.PromptResult, error) {
			v, err := up.relay(ctx, func(ctx context.Context) (any, error) {
				return up.client().GetPrompt(ctx, upstreamName, args)
			})
			if err != nil {
				return nil, up.failed(err)
			}
			r := v.(*protocol.GetPromptResult)
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
	return mp
}

// read reads a resource of the upstream.
func (up *upstream) read(ctx context.Context, uri string) ([]mcp.ResourceContents, error) {
	v, err := up.relay(ctx, func(ctx context.Context) (any, error) {
		return up.client().ReadResource(ctx, uri)
	})
	if err != nil {
		return nil, up.failed(err)
	}
	return v.(*protocol.ReadResourceResult).Contents, nil
}

// proxyTemplate is t served as it is, read and completed by the upstream.
func (up *upstream) proxyTemplate(t *protocol.ResourceTemplate, completes bool) mcp.ResourceTemplate {
	mt := mcp.ResourceTemplate{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description,
		MimeType: t.MimeType, Icons: t.Icons, Annotations: t.Annotations, Meta: metaOf(t.Meta),
		Read: func(ctx context.Context, uri string, _ map[string]string) ([]mcp.ResourceContents, error) {
			return up.read(ctx, uri)
		}}
	if completes {
		if parsed, err := uritemplate.Parse(t.URITemplate); err == nil {
			mt.Complete = map[string]mcp.CompleteFunc{}
			for _, v := range parsed.Vars() {
				mt.Complete[v] = up.completer(protocol.CompletionReference{Resource: &protocol.ResourceTemplateReference{URI: t.URITemplate}}, v)
			}
		}
	}
	return mt
}
