package resource

import (
	"context"
	"encoding/base64"
	"errors"
	"time"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/complete"
	"github.com/mcpwire/mcpwire/protocol"
)

// ErrNotFound is the error a read function wraps to answer that the
// resource does not exist, such as a template's {id} that names nothing.
var ErrNotFound = errors.New("resource not found")

// Contents is one item of a read's result: text, or binary data kept
// base64-encoded (the type of an embedded resource's contents in a tool
// result, so that one value serves both). [Text] and [Blob] build it.
type Contents = protocol.ResourceContents

// Annotations are optional hints for the client: audience ("user",
// "assistant"), priority in [0, 1], lastModified.
type Annotations = protocol.Annotations

// Icon is an icon for display (see tool.Icon).
type Icon = protocol.Icon

// CacheHint overrides, for the resources/read of one resource or template,
// the ttlMs and cacheScope a 2026-07-28 result carries (the server's
// Options.CacheHints["resources/read"] otherwise).
type CacheHint struct {
	// TTL is how long the contents may be reused; 0 means immediately
	// stale.
	TTL time.Duration
	// Public marks contents with no user-specific data, shareable across
	// users ("public"); otherwise reuse stays within one authorization
	// context ("private").
	Public bool
}

// ReadFunc reads a static resource; uri is the resource's own URI.
type ReadFunc func(ctx context.Context, uri string) ([]Contents, error)

// Resource is one static resource: its descriptor and its read function.
type Resource struct {
	// URI identifies the resource; it must be an absolute URI.
	URI string
	// Name is for programmatic use, and the display name when Title is
	// empty; required.
	Name string
	// Title is an optional display name (sent from 2025-06-18 on).
	Title string
	// Description says what the resource is.
	Description string
	// MimeType is the resource's MIME type, if known.
	MimeType string
	// Size is the raw content size in bytes, if known.
	Size *int64
	// Icons are optional icons (sent from 2025-11-25 on).
	Icons []Icon
	// Annotations are optional hints for the client.
	Annotations *Annotations
	// Meta is the descriptor's optional _meta object (sent from 2025-06-18
	// on).
	Meta map[string]any
	// Cache overrides the server's cache hint for reads of this resource.
	Cache *CacheHint
	// Visible, when set, says whether a caller may see the resource: a
	// caller who may not never finds it in resources/list, and reading it
	// is "not found", as for a URI that names nothing. Nil means every
	// caller may.
	Visible func(caller *auth.Principal) bool
	// Scopes are the OAuth scopes a caller must hold, all of them, to see
	// the resource in resources/list and read it. They stay on the server
	// (never in the descriptor). A caller lacking one finds no such
	// resource, except over HTTP behind package oauth, which answers a
	// read with 403 insufficient_scope naming them. Nil means every caller
	// may. Reads of a resource with scopes are never cached as "public".
	Scopes []string
	// Read reads the resource; required.
	Read ReadFunc
}

// Link returns a resource_link content block for r, for a tool result that
// points at this registered resource.
func (r Resource) Link() *protocol.ResourceLink {
	return &protocol.ResourceLink{
		URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description,
		MimeType: r.MimeType, Size: r.Size, Annotations: r.Annotations,
	}
}

// TemplateReadFunc reads a resource a template matched: uri is the
// concrete URI read, vars the values of the template's variables (percent-
// decoded; data, never a path to trust).
type TemplateReadFunc func(ctx context.Context, uri string, vars map[string]string) ([]Contents, error)

// Template is a family of resources named by an RFC 6570 URI template.
type Template struct {
	// URITemplate builds the resources' URIs, such as
	// "test://template/{id}/data"; required.
	URITemplate string
	// Name is for programmatic use, and the display name when Title is
	// empty; required.
	Name string
	// Title is an optional display name (sent from 2025-06-18 on).
	Title string
	// Description says what the resources are.
	Description string
	// MimeType is the MIME type every matching resource shares, if any.
	MimeType string
	// Icons are optional icons (sent from 2025-11-25 on).
	Icons []Icon
	// Annotations are optional hints for the client.
	Annotations *Annotations
	// Meta is the descriptor's optional _meta object (sent from 2025-06-18
	// on).
	Meta map[string]any
	// Cache overrides the server's cache hint for reads through this
	// template.
	Cache *CacheHint
	// Scopes are the OAuth scopes a caller must hold, all of them, to see
	// the template in resources/templates/list, read the resources it
	// matches and complete its variables; as Resource.Scopes otherwise.
	Scopes []string
	// Read reads a matching resource; required.
	Read TemplateReadFunc
	// Complete holds completion providers by variable name, for clients
	// that help a user fill in the template (completion/complete with a
	// ref/resource naming this URI template).
	Complete map[string]complete.Func
}

// Text returns text contents.
func Text(uri, mimeType, text string) Contents {
	return Contents{Text: &protocol.TextResourceContents{URI: uri, MimeType: mimeType, Text: text}}
}

// Blob returns binary contents, base64-encoded.
func Blob(uri, mimeType string, data []byte) Contents {
	return Contents{Blob: &protocol.BlobResourceContents{URI: uri, MimeType: mimeType, Blob: base64.StdEncoding.EncodeToString(data)}}
}

// Static returns a read function that always answers with the given
// contents, for a resource whose contents are known at start-up.
func Static(contents ...Contents) ReadFunc {
	return func(context.Context, string) ([]Contents, error) { return contents, nil }
}
