package mcp

import (
	"context"
	"errors"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/contract"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// handleResourcesRead reads a registered resource, or the first template
// that matches the URI, among those whose scopes the caller holds. A URI
// nothing answers is -32002 with data.uri (-32602 in the modern era: see
// eraError), unless only items the caller lacks scopes for match it and
// the transport can challenge (see scopeRefusal); a read that fails is
// -32603 unless it returned a *jsonrpc.Error on purpose.
func handleResourcesRead(ctx context.Context, ss *session, c *call, r *request, p *protocol.ReadResourceRequestParams) (any, error) {
	uri := p.URI
	if uri == "" {
		return nil, invalidParams(`resources/read needs a "uri" string`)
	}
	e, t, vars, need := ss.srv.findResourceFor(uri, r.caller)
	if e == nil && t == nil && need != nil {
		return nil, scopeRefusal(ctx, "resource "+clip.Quote(uri), need, resourceNotFound(uri))
	}
	var (
		contents []ResourceContents
		err      error
		hint     *CacheHint
	)
	in, rerr := ss.srv.openInput(r, uri, nil, r.params.Get("inputResponses"), p.RequestState)
	if rerr != nil {
		return nil, rerr
	}
	c.in = in
	ctx = c.handlerContext(ctx)
	switch {
	case e != nil && !e.visibleTo(r.caller):
		return nil, resourceNotFound(uri)
	case e != nil:
		contents, err = e.res.Read(ctx, uri)
		contents = withMimeType(contents, uri, e.res.MimeType)
		hint = e.res.Cache
	case t != nil:
		contents, err = t.tmpl.Read(ctx, uri, vars)
		hint = t.tmpl.Cache
	default:
		return nil, resourceNotFound(uri)
	}
	if missing := missingCapability(err); missing != nil {
		return nil, missing
	}
	if res, rerr := ss.srv.required(in); res != nil || rerr != nil {
		return inputOutcome(res, rerr)
	}
	if err != nil {
		var rpcErr *jsonrpc.Error
		switch {
		case errors.As(err, &rpcErr):
			return nil, rpcErr
		case errors.Is(err, ErrResourceNotFound):
			return nil, resourceNotFound(uri)
		}
		ss.log.Log(ctx, ss.srv.opts.HandlerErrorLevel, "mcp: resource read failed", "uri", clip.String(uri), "id", c.id.String(), "error", err.Error())
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: reading %s: %s", clip.Quote(uri), err.Error())
	}
	res, err := ss.srv.readResult(contents, r)
	if err != nil {
		ss.log.Error("mcp: resource read broke its contract", "uri", clip.String(uri), "id", c.id.String(), "violation", err.Error())
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: reading %s: %s", clip.Quote(uri), err.Error())
	}
	if hint != nil && r.modern() {
		res.CacheHints = wireHint(*hint)
	}
	if e != nil && e.gated() || t != nil && t.gated() {
		// What some callers may not read is never shared between them.
		ss.srv.privateCache(res, r)
	}
	return res, nil
}

// visibleTo reports whether caller may see the resource: Visible admits
// it and it holds the resource's scopes.
func (e *resourceEntry) visibleTo(caller *auth.Principal) bool {
	return (e.res.Visible == nil || e.res.Visible(caller)) && caller.HasScopes(e.res.Scopes...)
}

// gated reports whether some callers may not see the resource.
func (e *resourceEntry) gated() bool { return e.res.Visible != nil || len(e.res.Scopes) > 0 }

// gated reports whether some callers may not see the template.
func (e *templateEntry) gated() bool { return len(e.tmpl.Scopes) > 0 }

// resourceNotFound is the legacy not-found error, which eraError turns
// into -32602 for modern clients; data.uri names the resource either way.
func resourceNotFound(uri string) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeResourceNotFound, "resource not found: %s", clip.Quote(uri)).
		WithData(map[string]string{"uri": uri})
}

// readResult checks a read's contents and builds the result: at least one
// item, each with a URI and, for binary contents, valid base64; _meta and
// the fields revision r does not define are dropped.
func (s *Server) readResult(contents []ResourceContents, r *request) (*protocol.ReadResourceResult, error) {
	if len(contents) == 0 {
		return nil, errors.New("the read returned no contents (a missing resource is ErrResourceNotFound)")
	}
	res := &protocol.ReadResourceResult{Contents: make([]protocol.ResourceContents, 0, len(contents))}
	for i, c := range contents {
		if err := contract.CheckContents(c); err != nil {
			return nil, fmt.Errorf("contents[%d]: %w", i, err)
		}
		res.Contents = append(res.Contents, projectContents(c, r.rev))
	}
	return res, nil
}

// wireHint is a resource's own cache hint as a result carries it.
func wireHint(h CacheHint) protocol.CacheHints {
	scope := protocol.CacheScopePrivate
	if h.Public {
		scope = protocol.CacheScopePublic
	}
	return protocol.CacheHints{TTLMs: protocol.TTL(h.TTL), CacheScope: scope}
}

// handleResourcesSubscribe follows a URI for this (legacy) session:
// ResourceUpdated then sends it notifications/resources/updated. Any
// URI may be followed, registered or not (a template's resources are not
// listed), as the specification leaves it to the server.
func handleResourcesSubscribe(_ context.Context, ss *session, _ *call, _ *request, p *protocol.SubscribeRequestParams) (any, error) {
	if p.URI == "" {
		return nil, invalidParams(`resources/subscribe needs a "uri" string`)
	}
	ss.subsMu.Lock()
	if ss.resSubs == nil {
		ss.resSubs = map[string]bool{}
	}
	if !ss.resSubs[p.URI] && len(ss.resSubs) >= maxResourceSubscriptions {
		ss.subsMu.Unlock()
		return nil, overloaded("this session already follows %d resources; unsubscribe from one first", maxResourceSubscriptions)
	}
	ss.resSubs[p.URI] = true
	ss.subsMu.Unlock()
	return json.RawMessage("{}"), nil
}

// maxResourceSubscriptions bounds the URIs one session follows.
const maxResourceSubscriptions = 4096

func handleResourcesUnsubscribe(_ context.Context, ss *session, _ *call, _ *request, p *protocol.SubscribeRequestParams) (any, error) {
	if p.URI == "" {
		return nil, invalidParams(`resources/unsubscribe needs a "uri" string`)
	}
	ss.subsMu.Lock()
	delete(ss.resSubs, p.URI)
	ss.subsMu.Unlock()
	return json.RawMessage("{}"), nil
}

// wire is the resource descriptor with the fields revision r defines.
func (e *resourceEntry) wire(r protocol.Revision) protocol.Resource {
	res := e.res
	w := protocol.Resource{URI: res.URI, Name: res.Name, Description: res.Description, MimeType: res.MimeType,
		Size: res.Size, Annotations: wireAnnotations(res.Annotations, r)}
	newerFields(r, &w.Title, &w.Meta, &w.Icons, res.Title, e.meta, res.Icons)
	return w
}

// wire is the template descriptor with the fields revision r defines.
func (e *templateEntry) wire(r protocol.Revision) protocol.ResourceTemplate {
	t := e.tmpl
	w := protocol.ResourceTemplate{URITemplate: t.URITemplate, Name: t.Name, Description: t.Description,
		MimeType: t.MimeType, Annotations: wireAnnotations(t.Annotations, r)}
	newerFields(r, &w.Title, &w.Meta, &w.Icons, t.Title, e.meta, t.Icons)
	return w
}

// wireAnnotations are a descriptor's annotations as revision r defines
// them (lastModified only from 2025-06-18 on); nil when none is set.
func wireAnnotations(a *protocol.Annotations, r protocol.Revision) *protocol.Annotations {
	a = projectAnnotations(a, r)
	if a == nil || len(a.Audience) == 0 && a.Priority == nil && a.LastModified == "" {
		return nil
	}
	if a.Audience != nil && len(a.Audience) == 0 {
		cp := *a
		cp.Audience = nil
		return &cp
	}
	return a
}
