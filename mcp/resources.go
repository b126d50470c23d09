package mcp

import (
	"fmt"
	"net/url"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/uritemplate"
	"github.com/mcpwire/mcpwire/protocol"
)

// resourceEntry is a registered resource and its _meta, encoded once.
type resourceEntry struct {
	res  Resource
	meta protocol.Meta
}

// templateEntry is a registered template, parsed once, and its _meta.
type templateEntry struct {
	tmpl    ResourceTemplate
	matcher *uritemplate.Template
	meta    protocol.Meta
}

// AddResource registers a static resource. It fails, wrapping
// ErrInvalidResource, when the URI is not absolute, the name is empty, the
// read function is missing or the _meta cannot be encoded, and, wrapping
// ErrDuplicateResource, when a resource with the same URI is registered.
// resources/list lists resources in registration order.
func (s *Server) AddResource(r Resource) error {
	if err := checkResourceURI(r.URI); err != nil {
		return fmt.Errorf("mcp: AddResource: %w: %w", ErrInvalidResource, err)
	}
	if err := checkResourceFields("resource "+clip.Quote(r.URI), r.Name, r.Read == nil); err != nil {
		return fmt.Errorf("mcp: AddResource: %w: %w", ErrInvalidResource, err)
	}
	scopes, err := checkScopes("resource "+clip.Quote(r.URI), r.Scopes)
	if err != nil {
		return fmt.Errorf("mcp: AddResource: %w: %w", ErrInvalidResource, err)
	}
	r.Scopes = scopes
	meta, err := protocol.MetaOf(r.Meta)
	if err != nil {
		return fmt.Errorf("mcp: AddResource: %w: resource %s: %w", ErrInvalidResource, clip.Quote(r.URI), err)
	}
	return resourceList.add(s, "AddResource", &resourceEntry{res: r, meta: meta}, ErrDuplicateResource)
}

// AddResourceTemplate registers a resource template. The URI template is
// parsed as RFC 6570 (see internal/uritemplate for the matching rules: a
// simple {var} matches one path segment's worth of unreserved or
// percent-encoded characters and never a "/"; {+var} may span "/"; {/var*}
// matches one or more segments). A resources/read of a URI that is not a
// registered resource is answered by the first template, in registration
// order, that matches the whole URI. It fails like AddResource, and for a
// template that does not parse; a duplicate is the same template text.
func (s *Server) AddResourceTemplate(t ResourceTemplate) error {
	m, err := uritemplate.Parse(t.URITemplate)
	if err != nil {
		return fmt.Errorf("mcp: AddResourceTemplate: %w: %w", ErrInvalidResource, err)
	}
	if err := checkResourceFields("resource template "+clip.Quote(t.URITemplate), t.Name, t.Read == nil); err != nil {
		return fmt.Errorf("mcp: AddResourceTemplate: %w: %w", ErrInvalidResource, err)
	}
	scopes, err := checkScopes("resource template "+clip.Quote(t.URITemplate), t.Scopes)
	if err != nil {
		return fmt.Errorf("mcp: AddResourceTemplate: %w: %w", ErrInvalidResource, err)
	}
	t.Scopes = scopes
	meta, err := protocol.MetaOf(t.Meta)
	if err != nil {
		return fmt.Errorf("mcp: AddResourceTemplate: %w: resource template %s: %w", ErrInvalidResource, clip.Quote(t.URITemplate), err)
	}
	return templateList.add(s, "AddResourceTemplate", &templateEntry{tmpl: t, matcher: m, meta: meta}, ErrDuplicateResource)
}

// MustAddResource is AddResource that panics on error, for start-up code.
func (s *Server) MustAddResource(r Resource) { must(s.AddResource(r)) }

// MustAddResourceTemplate is AddResourceTemplate that panics on error.
func (s *Server) MustAddResourceTemplate(t ResourceTemplate) { must(s.AddResourceTemplate(t)) }

// RemoveResource unregisters a resource by URI and reports whether it was
// there; the order of the others is kept.
func (s *Server) RemoveResource(uri string) bool { return resourceList.remove(s, uri) }

// RemoveResourceTemplate unregisters a template by its URI template text
// and reports whether it was there.
func (s *Server) RemoveResourceTemplate(uriTemplate string) bool {
	return templateList.remove(s, uriTemplate)
}

// hasResources reports whether any resource or template is registered.
func (s *Server) hasResources() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.resources.list) > 0 || len(s.templates.list) > 0
}

// findResourceFor returns the reader of uri for caller: the registered
// resource, else the first template that matches it, with the variables
// it matched. A resource or template whose scopes the caller lacks does
// not answer, as if it were not registered, and the next that matches may. When none answers, need holds
// the scopes of the first one passed over (nil when none was), for the
// caller to be told what reading uri needs.
func (s *Server) findResourceFor(uri string, caller *auth.Principal) (e *resourceEntry, t *templateEntry, vars map[string]string, need []string) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if e, ok := s.resources.get(uri); ok {
		if caller.HasScopes(e.res.Scopes...) {
			return e, nil, nil, nil
		}
		need = e.res.Scopes
	}
	for _, t := range s.templates.list {
		vars, ok := t.matcher.Match(uri)
		switch {
		case !ok:
		case caller.HasScopes(t.tmpl.Scopes...):
			return nil, t, vars, nil
		case need == nil:
			need = t.tmpl.Scopes
		}
	}
	return nil, nil, nil, need
}

// checkResourceURI requires an absolute URI: a scheme, then anything a URI
// parser accepts.
func checkResourceURI(uri string) error {
	if uri == "" {
		return fmt.Errorf("resource URI is empty")
	}
	u, err := url.Parse(uri)
	if err != nil || !u.IsAbs() {
		return fmt.Errorf("resource URI %s is not an absolute URI (it needs a scheme, such as file: or https:)", clip.Quote(uri))
	}
	return nil
}

// checkResourceFields checks what resources and templates both require.
func checkResourceFields(what, name string, noRead bool) error {
	switch {
	case name == "":
		return fmt.Errorf("%s has no name", what)
	case noRead:
		return fmt.Errorf("%s has no read function", what)
	}
	return nil
}
