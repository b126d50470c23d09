package apps

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// ErrInvalidResource is wrapped by [Add]'s errors: the resource it was
// given is not one the extension allows.
var ErrInvalidResource = errors.New("apps: invalid UI resource")

// Resource is an app's view as a server serves it: an HTML5 document at a
// ui:// URI, read with the MIME type [MIMEType], and how a host should
// sandbox it.
type Resource struct {
	// URI is the view's address; it must start with "ui://".
	URI string
	// Name is for programmatic use, and the display name when Title is
	// empty; required.
	Name string
	// Title is an optional display name.
	Title string
	// Description says what the view shows.
	Description string
	// HTML is the view: a whole HTML5 document, with its scripts and
	// styles inline or from origins its Meta.CSP declares; required.
	HTML string
	// Meta is the resource's _meta.ui, sent on its resources/list entry
	// and on the contents resources/read returns.
	Meta ResourceMeta
}

// Add registers r with srv as a resource: listed with its _meta.ui and
// read as one text item of type [MIMEType] carrying the same _meta.ui. It
// refuses, wrapping [ErrInvalidResource], a URI that is not ui://, an
// empty HTML, and a CSP entry that is not an origin.
func Add(srv *mcp.Server, r Resource) error {
	if err := r.check(); err != nil {
		return err
	}
	ui, err := json.Marshal(r.Meta)
	if err != nil {
		return fmt.Errorf("%w: %s: _meta.ui: %w", ErrInvalidResource, clip.Quote(r.URI), err)
	}
	contents := []mcp.ResourceContents{{Text: &protocol.TextResourceContents{
		URI: r.URI, MimeType: MIMEType, Text: r.HTML, Meta: protocol.Meta{"ui": ui},
	}}}
	return srv.AddResource(mcp.Resource{
		URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description,
		MimeType: MIMEType, Meta: map[string]any{"ui": json.RawMessage(ui)},
		Read: func(context.Context, string) ([]mcp.ResourceContents, error) { return contents, nil },
	})
}

// check reports what the extension does not allow in r.
func (r Resource) check() error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrInvalidResource, clip.Quote(r.URI), fmt.Sprintf(format, args...))
	}
	switch {
	case !strings.HasPrefix(r.URI, scheme) || len(r.URI) == len(scheme):
		return fail("the URI must start with %s and name a view", scheme)
	case strings.TrimSpace(r.HTML) == "":
		return fail("the HTML is empty")
	}
	if err := r.Meta.check(); err != nil {
		return fail("%v", err)
	}
	return nil
}

// Link returns t linked to r's view: its _meta.ui names r.URI (and so
// does the flat "ui/resourceUri" key older hosts read) and, when given,
// who may call it. A host that supports apps renders t's results with
// the view; one that does not sees a plain tool, so t's results must
// still say in their content what the view shows.
//
// A tool visible to the app alone (visibility [VisibleToApp]) is for the
// view to call: a client that did not declare the extension has no view,
// so such a call must come from a model the host should not have shown
// the tool to, and it gets an isError result saying so. t's Meta is
// copied, never changed.
func (r Resource) Link(t tool.Tool, visibility ...Visibility) tool.Tool {
	var vis []Visibility
	for _, v := range visibility {
		if !slices.Contains(vis, v) {
			vis = append(vis, v)
		}
	}
	meta := maps.Clone(t.Meta)
	if meta == nil {
		meta = map[string]any{}
	}
	meta["ui"] = ToolMeta{ResourceURI: r.URI, Visibility: vis}
	meta[legacyResourceURIKey] = r.URI
	t.Meta = meta
	if len(vis) > 0 && !slices.Contains(vis, VisibleToModel) && t.Handler != nil {
		next, name := t.Handler, t.Name
		t.Handler = func(ctx context.Context, args json.RawMessage) (*tool.Result, error) {
			if !ClientSupports(ctx) {
				return tool.ErrorResult("%s is called by its app's view (%s); this client declared no support for apps", name, ExtensionID), nil
			}
			return next(ctx, args)
		}
	}
	return t
}

// ClientSupports reports whether the client of the request ctx serves
// declared the extension with [MIMEType] among its mimeTypes: a host that
// renders apps. A server may then offer tools linked to views, and a
// text-only variant otherwise. Hosts declare it in
// capabilities.extensions in every era, in initialize on a legacy
// session and on each request in 2026-07-28; outside a request it is
// false.
func ClientSupports(ctx context.Context) bool {
	info := mcp.RequestFrom(ctx)
	if info == nil {
		return false
	}
	return declaresMIMEType(info.ClientCapabilities)
}

// declaresMIMEType reports whether caps, a client's capabilities, declare
// the extension with MIMEType.
func declaresMIMEType(caps json.RawMessage) bool {
	ext := jsonx.At(caps, []string{"extensions", ExtensionID, "mimeTypes"})
	if len(ext) == 0 || ext[0] != '[' {
		return false
	}
	var types []string
	if json.Unmarshal(ext, &types) != nil {
		return false
	}
	return slices.Contains(types, MIMEType)
}
