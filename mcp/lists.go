package mcp

import (
	"context"
	"fmt"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/feature"
	"github.com/mcpwire/mcpwire/protocol"
)

// list is one of the server's four lists (tools, prompts, resources and
// resource templates) as one generic piece: where its registry is, what
// a change tells the clients, and how its list method ("Pagination" in
// the specification) pages it for a caller. E is the registered entry, W
// its wire descriptor.
type list[E listed, W any] struct {
	kind    byte // the list a cursor names (see cursor.go)
	reg     func(*Server) *registry[E]
	changed func(*Server) // tells every client the list changed
	// gated reports whether some callers may not see e; sees whether the
	// caller of r sees a gated entry.
	gated  func(E) bool
	sees   func(e E, r *request) bool
	wire   func(E, protocol.Revision) W // the descriptor revision r defines
	result func(page []W, next *string) listResult
}

// listResult is a list method's result.
type listResult interface {
	ResultCacheHints() *protocol.CacheHints
}

// The four lists.
var (
	toolList = &list[*entry, protocol.Tool]{listTools, func(s *Server) *registry[*entry] { return &s.tools }, (*Server).toolsChanged,
		func(e *entry) bool { return e.scoped() || e.task.TaskClientsOnly }, toolSees, (*entry).wireTool, toolsResult}
	promptList = &list[*promptEntry, protocol.Prompt]{listPrompts, func(s *Server) *registry[*promptEntry] { return &s.prompts }, (*Server).promptsChanged,
		(*promptEntry).scoped, holdsScopes(func(e *promptEntry) []string { return e.p.Scopes }), (*promptEntry).wire, promptsResult}
	resourceList = &list[*resourceEntry, protocol.Resource]{listResources, func(s *Server) *registry[*resourceEntry] { return &s.resources }, (*Server).resourcesChanged,
		(*resourceEntry).gated, resourceSees, (*resourceEntry).wire, resourcesResult}
	templateList = &list[*templateEntry, protocol.ResourceTemplate]{listTemplates, func(s *Server) *registry[*templateEntry] { return &s.templates }, (*Server).resourcesChanged,
		(*templateEntry).gated, holdsScopes(func(e *templateEntry) []string { return e.tmpl.Scopes }), (*templateEntry).wire, templatesResult}
)

// The four list results.
func toolsResult(page []protocol.Tool, next *string) listResult {
	return &protocol.ListToolsResult{Tools: page, NextCursor: next}
}
func promptsResult(page []protocol.Prompt, next *string) listResult {
	return &protocol.ListPromptsResult{Prompts: page, NextCursor: next}
}
func resourcesResult(page []protocol.Resource, next *string) listResult {
	return &protocol.ListResourcesResult{Resources: page, NextCursor: next}
}
func templatesResult(page []protocol.ResourceTemplate, next *string) listResult {
	return &protocol.ListResourceTemplatesResult{ResourceTemplates: page, NextCursor: next}
}

// resourceSees admits the resources the caller may see (see visibleTo).
func resourceSees(e *resourceEntry, r *request) bool { return e.visibleTo(r.caller) }

// toolSees admits the tools whose scopes the caller holds, and those for
// task clients only when the request declares the tasks extension (read
// for those tools alone: they are few, when there are any).
func toolSees(e *entry, r *request) bool {
	return r.caller.HasScopes(e.tool.Scopes...) && (!e.task.TaskClientsOnly || declaresTasks(r))
}

// holdsScopes admits the entries whose scopes the caller holds.
func holdsScopes[E any](scopes func(E) []string) func(E, *request) bool {
	return func(e E, r *request) bool { return r.caller.HasScopes(scopes(e)...) }
}

// serve answers the list method: the page at the cursor of what the
// caller sees. A list no caller sees differently is encoded once per
// revision and page (see cachedPage); one with gated entries is built per
// caller and marked private.
func (l *list[E, W]) serve(_ context.Context, ss *session, _ *call, r *request, p *protocol.PaginatedRequestParams) (any, error) {
	all, snap := l.snapshot(ss.srv)
	visible, varies := visibleList(all, l.gated, func(e E) bool { return l.sees(e, r) })
	build := func() (any, error) {
		page, next, err := pageOf(ss.srv, l.kind, p.Cursor, visible, snap, func(e E) W { return l.wire(e, r.rev) })
		if err != nil {
			return nil, err
		}
		res := l.result(page, next)
		if varies {
			ss.srv.privateCache(res, r)
		}
		return res, nil
	}
	if varies { // what a caller sees depends on its scopes or capabilities
		return build()
	}
	return cachedPage(ss.srv, l.kind, p.Cursor, snap, len(all), r, build)
}

// add registers e and tells the clients; op names the registration
// method in the error, which wraps dup when e's key is taken.
func (l *list[E, W]) add(s *Server, op string, e E, dup error) error {
	reg := l.reg(s)
	s.mu.Lock()
	added := reg.add(e)
	s.mu.Unlock()
	if !added {
		return fmt.Errorf("mcp: %s: %w: %s", op, dup, clip.Quote(reg.key(e)))
	}
	l.tell(s, e)
	return nil
}

// tell tells the clients that e joined or left the list: a tool's change
// names the tool to the middleware (see toolChanged).
func (l *list[E, W]) tell(s *Server, e E) {
	if t, ok := any(e).(*entry); ok {
		s.toolChanged(t)
		return
	}
	l.changed(s)
}

// remove unregisters the entry with key k, keeping the others' order,
// tells the clients, and reports whether it was there.
func (l *list[E, W]) remove(s *Server, k string) bool {
	s.mu.Lock()
	e, _ := l.reg(s).get(k)
	ok := l.reg(s).remove(k)
	s.mu.Unlock()
	if ok {
		l.tell(s, e)
	}
	return ok
}

// get returns the entry with key k.
func (l *list[E, W]) get(s *Server, k string) (E, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return l.reg(s).get(k)
}

// snapshot returns the list and its snapshot (for pageOf).
func (l *list[E, W]) snapshot(s *Server) ([]E, *listSnapshot[E]) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	reg := l.reg(s)
	return reg.list, reg.snap
}

// newerFields sets the members of a prompt, resource or template
// descriptor that only some revisions define, when r does: title, _meta
// and icons.
func newerFields(r protocol.Revision, title *string, meta *protocol.Meta, icons *[]protocol.Icon, t string, m protocol.Meta, ic []protocol.Icon) {
	if feature.Titles(r) {
		*title = t
	}
	if feature.ContentMeta(r) {
		*meta = m
	}
	if feature.Icons(r) {
		*icons = ic
	}
}

// must panics with err, for the MustAdd methods.
func must(err error) {
	if err != nil {
		panic(err)
	}
}
