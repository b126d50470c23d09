package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"reflect"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/callctx"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// Extension is an optional feature added to a server without changing
// package mcp, as the 2026-07-28 revision defines extensions: an
// identifier, the capability object advertised under it in
// capabilities.extensions, and the request methods it adds. Give
// extensions to NewServer in Options.Extensions.
//
// Its methods are lines of the server's one method table, beside the
// built-in ones: their params are decoded as strictly (a member of the
// wrong type is -32602 naming it), they are served only in the eras the
// extension defines (2026-07-28, unless Legacy), their 2026-07-28 results
// get resultType, the server's identity and, when Cacheable, ttlMs and
// cacheScope, and over Streamable HTTP their Mcp-Method and Mcp-Name
// headers are checked against the body as for any method.
//
// On legacy connections an extension is invisible unless it sets Legacy:
// legacy capabilities have no extensions member.
type Extension struct {
	// ID is the extension's identifier, a prefixed name such as
	// "io.modelcontextprotocol/skills" (a reverse-DNS prefix, a slash, a
	// name); required.
	ID string
	// Capability is the object advertised as capabilities.extensions[ID]
	// in 2026-07-28 (server/discover); nil advertises {}.
	Capability protocol.Object
	// Methods are the request methods the extension adds. A name may not
	// be a built-in method's or another extension's.
	Methods []Method
	// RequireClient refuses the extension's methods to a client that did
	// not declare it (capabilities.extensions[ID], or
	// capabilities.experimental[ID] on a legacy session) with -32021,
	// data.requiredCapabilities naming it.
	RequireClient bool
	// Legacy serves the methods on legacy sessions too and advertises
	// Capability under capabilities.experimental[ID] in initialize's
	// result: for an extension that defines a legacy form.
	Legacy bool
	// Attach, when set, is called once by NewServer with the server built,
	// for an extension that also serves through the server's own
	// registries (the resources and tools it adds); an error stops
	// NewServer as a malformed extension does.
	Attach func(*Server) error
}

// Method is one request method an extension adds.
type Method struct {
	// Name is the method, such as "skills/list"; required.
	Name string
	// Handler serves it: see Handle.
	Handler MethodHandler
	// Named is the params member a 2026-07-28 client mirrors in the
	// Mcp-Name header over Streamable HTTP (as "name" for tools/call), ""
	// when the method names nothing.
	Named string
	// Cacheable: a complete 2026-07-28 result carries ttlMs and
	// cacheScope (Options.CacheHints[Name], else one minute, private),
	// unless the handler set its own. The result type must embed
	// protocol.CacheHints.
	Cacheable bool
}

// MethodHandler serves an extension's method; make one with Handle.
type MethodHandler struct{ h handler }

// Handle makes the handler of an extension's method from fn, which gets
// the request's params decoded into a P (a struct whose fields carry json
// tags: matched by exact name, "_meta" skipped, unknown members ignored,
// a member of the wrong type refused with -32602 before fn runs) and
// returns the result. R is the method's result type: a struct embedding
// protocol.Envelope gets what every 2026-07-28 result carries (and
// protocol.CacheHints, the cache hints of a Cacheable method). An error fn
// returns reaches the client as package jsonrpc's wire error does: a
// *jsonrpc.Error as it is, anything else as -32603. ctx carries the
// request, as for a tool: RequestFrom, Logger and ReportProgress work,
// and ask's functions may ask the client.
func Handle[P, R any](fn func(ctx context.Context, params *P) (R, error)) MethodHandler {
	t := reflect.TypeFor[P]()
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("mcp: Handle's params type %v is not a struct", t))
	}
	return MethodHandler{typed(func(ctx context.Context, _ *session, c *call, _ *request, p *P) (any, error) {
		return fn(c.handlerContext(ctx), p)
	})}
}

// extensions is what a server's extensions add to the method table, and
// what it advertises for them; fixed by NewServer.
type extensions struct {
	list    []Extension
	methods map[string]method
}

// method returns the method table's line for name: a built-in method's,
// else an extension's.
func (s *Server) method(name string) (method, bool) {
	if m, ok := methods[name]; ok {
		return m, true
	}
	m, ok := s.ext.methods[name]
	return m, ok
}

// methodTarget is what a request of method names.
func (s *Server) methodTarget(name string) target {
	m, _ := s.method(name)
	return m.target
}

// cacheable reports whether method's complete modern results carry cache
// hints.
func (s *Server) cacheable(name string) bool {
	m, _ := s.method(name)
	return m.cacheable
}

// addExtensions checks the extensions of Options and adds their methods.
func (s *Server) addExtensions(list []Extension) error {
	s.ext.methods = map[string]method{}
	seen := map[string]bool{TasksExtension: true}
	for _, e := range list {
		if err := checkExtensionID(e.ID); err != nil {
			return err
		}
		if seen[e.ID] {
			return fmt.Errorf("mcp: extension %q is given twice (or is built in)", e.ID)
		}
		seen[e.ID] = true
		for _, m := range e.Methods {
			switch {
			case m.Name == "":
				return fmt.Errorf("mcp: extension %q has a method without a name", e.ID)
			case m.Handler.h == nil:
				return fmt.Errorf("mcp: extension %q: method %q has no Handler (see mcp.Handle)", e.ID, m.Name)
			case strings.HasPrefix(m.Name, "notifications/"):
				return fmt.Errorf("mcp: extension %q: %q is a notification's name, not a request method's", e.ID, m.Name)
			}
			if _, ok := s.method(m.Name); ok {
				return fmt.Errorf("mcp: extension %q: method %q is defined already", e.ID, m.Name)
			}
			s.ext.methods[m.Name] = s.extensionMethod(e, m)
		}
		s.ext.list = append(s.ext.list, e)
	}
	return nil
}

// checkExtensionID checks an extension identifier's form: a prefix with at
// least one dot, a slash, and a name.
func checkExtensionID(id string) error {
	prefix, name, ok := strings.Cut(id, "/")
	if !ok || name == "" || !strings.Contains(prefix, ".") || strings.ContainsAny(id, " \t\r\n") {
		return fmt.Errorf("mcp: extension identifier %q is not of the form prefix/name with a dotted prefix (such as io.modelcontextprotocol/skills)", id)
	}
	return nil
}

// extensionMethod is the method table's line for m of e.
func (s *Server) extensionMethod(e Extension, m Method) method {
	h := m.Handler.h
	if e.RequireClient {
		id := e.ID
		h = func(ctx context.Context, ss *session, c *call, r *request) (any, error) {
			if !declaresExtension(r.clientCaps, id, r.modern()) {
				return nil, missingExtension(id, r.method)
			}
			return m.Handler.h(ctx, ss, c, r)
		}
	}
	return method{handle: h, legacy: e.Legacy, modern: true, cacheable: m.Cacheable,
		named: m.Named, asks: true, result: "Result"}
}

// declaresExtension reports whether the client's capabilities declare
// the extension id: in extensions (2026-07-28) or experimental (legacy).
func declaresExtension(caps json.RawMessage, id string, modern bool) bool {
	if !bytes.Contains(caps, []byte(id)) { // the common case, without a parse
		return false
	}
	obj, err := jsonx.ParseObject(caps)
	if err != nil {
		return false
	}
	key := "experimental"
	if modern {
		key = "extensions"
	}
	ext, err := jsonx.ParseObject(obj.Get(key))
	if err != nil {
		return false
	}
	v := ext.Get(id)
	return v != nil && v[0] == '{'
}

// missingExtension is the -32021 error of a request of method that needs
// the client to declare the extension id.
func missingExtension(id, method string) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeMissingRequiredClientCapability,
		"%s needs the client to declare the %s extension", method, id).
		WithData(map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{id: map[string]any{}}}})
}

// advertise adds the extensions' capabilities to caps for revision r.
func (x *extensions) advertise(caps *protocol.ServerCapabilities, r protocol.Revision) {
	for _, e := range x.list {
		c := e.Capability
		if c == nil {
			c = protocol.Object{}
		}
		switch {
		case r.Modern():
			if caps.Extensions == nil {
				caps.Extensions = map[string]protocol.Object{}
			}
			caps.Extensions[e.ID] = c
		case e.Legacy:
			if caps.Experimental == nil {
				caps.Experimental = map[string]protocol.Object{}
			}
			caps.Experimental[e.ID] = c
		}
	}
}

// Page pages an extension's list method as the built-in lists are paged:
// given the request's cursor ("" for the first page) and the list's
// length n, it returns the bounds of the page to answer with and the
// cursor of the next page (nil on the last). Pages hold Options.PageSize
// items; cursors are sealed with the server's state key, so that a client
// can neither forge nor read them. A cursor is bound to list (the list's
// name, such as the method's) and to version, which must change whenever
// what is listed changes (a digest of it): a cursor of another list, or
// one made before a change, is refused with -32602. Outside a request's
// handler Page returns the whole list.
func Page(ctx context.Context, list, version, cursor string, n int) (start, end int, next *string, err error) {
	c, ok := callctx.From(ctx).(*call)
	if !ok {
		return 0, n, nil, nil
	}
	sum := sha256.Sum256([]byte(list + "\x00" + version))
	var tag listTag
	copy(tag[:], sum[:])
	return c.ss.srv.page(listExtension, &cursor, tag, n)
}
