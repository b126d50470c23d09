package apps

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/protocol"
)

// Declare is the extension as a host declares it (in
// client.Options.Extensions): it renders views of type [MIMEType].
var Declare = client.Extension{ID: ExtensionID, Capability: protocol.Object{
	"mimeTypes": json.RawMessage(`["` + MIMEType + `"]`),
}}

// ToolMetaOf returns what t's _meta says of its view: _meta.ui, with its
// resourceUri taken from the flat "ui/resourceUri" key when _meta.ui
// names none (older servers send only that). A tool with neither has no
// view: its ToolMeta has no ResourceURI and is visible to both. A _meta.ui
// that is not an object of the extension's shape, or a resource URI that
// is not ui://, is an error wrapping [ErrInvalidResource]: a host shows
// such a tool no view.
func ToolMetaOf(t *protocol.Tool) (ToolMeta, error) {
	var m ToolMeta
	fail := func(format string, args ...any) (ToolMeta, error) {
		return ToolMeta{}, fmt.Errorf("%w: tool %s: %s", ErrInvalidResource, clip.Quote(t.Name), fmt.Sprintf(format, args...))
	}
	if raw := t.Meta["ui"]; raw != nil {
		if err := json.Unmarshal(raw, &m); err != nil {
			return fail("_meta.ui: %v", clip.String(err.Error()))
		}
	}
	if raw := t.Meta[legacyResourceURIKey]; m.ResourceURI == "" && raw != nil {
		if err := json.Unmarshal(raw, &m.ResourceURI); err != nil {
			return fail("_meta[%q] is not a string", legacyResourceURIKey)
		}
	}
	if m.ResourceURI != "" && !strings.HasPrefix(m.ResourceURI, scheme) {
		return fail("its resource %s is not a %s URI", clip.Quote(m.ResourceURI), scheme)
	}
	return m, nil
}

// View is an app's view as a host loaded it, checked: a host may serve
// HTML with the policy Meta.CSP.Policy() gives.
type View struct {
	// URI is the view's ui:// resource.
	URI string
	// HTML is the document.
	HTML string
	// Meta is the view's _meta.ui: the read contents', or, when they carry
	// none, the resources/list entry's.
	Meta ResourceMeta
}

// Load reads the view at uri from c's server and checks it: exactly one
// contents item at uri, of type [MIMEType], text or base64, not empty,
// and a _meta.ui whose CSP holds origins only. What fails is an error
// wrapping [ErrInvalidResource]. When the contents carry no _meta.ui, the
// server's resources/list entry for uri is looked up for one.
func Load(ctx context.Context, c *client.Client, uri string) (*View, error) {
	fail := func(format string, args ...any) (*View, error) {
		return nil, fmt.Errorf("%w: %s: %s", ErrInvalidResource, clip.Quote(uri), fmt.Sprintf(format, args...))
	}
	if !strings.HasPrefix(uri, scheme) {
		return fail("not a %s URI", scheme)
	}
	r, err := c.ReadResource(ctx, uri)
	if err != nil {
		return nil, err
	}
	var item *protocol.ResourceContents
	for i, it := range r.Contents {
		if it.URI() == uri {
			if item != nil {
				return fail("the read gave more than one contents item at the URI")
			}
			item = &r.Contents[i]
		}
	}
	if item == nil {
		return fail("the read gave no contents at the URI")
	}
	v := &View{URI: uri}
	var mime string
	var meta protocol.Meta
	switch {
	case item.Text != nil:
		v.HTML, mime, meta = item.Text.Text, item.Text.MimeType, item.Text.Meta
	case item.Blob != nil:
		b, err := base64.StdEncoding.DecodeString(item.Blob.Blob)
		if err != nil {
			return fail("its blob is not base64")
		}
		v.HTML, mime, meta = string(b), item.Blob.MimeType, item.Blob.Meta
	}
	if !sameMIMEType(mime) {
		return fail("its MIME type is %s, not %s", clip.Quote(mime), MIMEType)
	}
	if strings.TrimSpace(v.HTML) == "" {
		return fail("the document is empty")
	}
	ui := meta["ui"]
	if ui == nil {
		if ui, err = listedMeta(ctx, c, uri); err != nil {
			return nil, err
		}
	}
	if ui != nil {
		if err := json.Unmarshal(ui, &v.Meta); err != nil {
			return fail("_meta.ui: %s", clip.String(err.Error()))
		}
		if err := v.Meta.check(); err != nil {
			return fail("%v", err)
		}
	}
	return v, nil
}

// listedMeta returns the _meta.ui of uri's resources/list entry, nil when
// the server lists no such resource (it may leave views out) or the entry
// carries none.
func listedMeta(ctx context.Context, c *client.Client, uri string) (json.RawMessage, error) {
	for r, err := range c.Resources(ctx) {
		if err != nil {
			return nil, fmt.Errorf("apps: listing resources for the _meta.ui of %s: %w", clip.Quote(uri), err)
		}
		if r.URI == uri {
			return r.Meta["ui"], nil
		}
	}
	return nil, nil
}

// sameMIMEType reports whether mime is MIMEType, as MIME types compare:
// case aside and spaces around the parameter aside.
func sameMIMEType(mime string) bool {
	base, param, _ := strings.Cut(mime, ";")
	return strings.EqualFold(strings.TrimSpace(base)+";"+strings.TrimSpace(param), MIMEType)
}
