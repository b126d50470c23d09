package mcp

// Resources as Go values: a static resource (a URI and a function that
// reads it) and a resource template (an RFC 6570 URI template, such as
// "test://template/{id}/data", whose read function gets the variables a
// concrete URI matched). Server.AddResource and AddResourceTemplate
// register them; the server answers resources/list,
// resources/templates/list and resources/read for them, in both eras.
//
// A read returns one or more ResourceContents, text or binary, built with
// TextContents and BlobContents. Returning an error that wraps
// ErrResourceNotFound answers "no such resource" (-32002 for a legacy
// client, -32602 for a 2026-07-28 one, with data.uri either way); a
// *jsonrpc.Error passes through as it is; any other error is an internal
// error (-32603) whose message is the error's text. A read never answers
// with an empty contents list: returning none is reported as an internal
// error, since the specification forbids an empty list for a missing
// resource.
//
// Template matching is mcpwire's own (internal/uritemplate), not a
// library's: it is a few hundred lines, matches exactly (a simple {var}
// never spans a "/"; {+path} and {/segments*} say where one may), and is
// fuzzed. See Server.AddResourceTemplate for the matching rules.

import (
	"context"
	"encoding/base64"
	"errors"
	"slices"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/protocol"
)

// ErrResourceNotFound is the error a read function wraps to answer that
// the resource does not exist, such as a template's {id} that names
// nothing.
var ErrResourceNotFound = errors.New("resource not found")

// ResourceContents is one item of a read's result: text, or binary data
// kept base64-encoded (the type of an embedded resource's contents in a
// tool result, so that one value serves both). [TextContents] and
// [BlobContents] build it. It is named here so that a read function's
// signature needs no import of package protocol.
type ResourceContents = protocol.ResourceContents

// ResourceFunc reads a static resource; uri is the resource's own URI.
type ResourceFunc func(ctx context.Context, uri string) ([]ResourceContents, error)

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
	// MimeType is the resource's MIME type, if known. A read's contents
	// item at the resource's URI that names no MIME type of its own, such
	// as StaticRead's, is sent with this one.
	MimeType string
	// Size is the raw content size in bytes, if known.
	Size *int64
	// Icons are optional icons (sent from 2025-11-25 on).
	Icons []protocol.Icon
	// Annotations are optional hints for the client: audience ("user",
	// "assistant"), priority in [0, 1], lastModified.
	Annotations *protocol.Annotations
	// Meta is the descriptor's optional _meta object (sent from 2025-06-18
	// on).
	Meta map[string]any
	// Cache overrides, for reads of this resource, the ttlMs and
	// cacheScope a 2026-07-28 result carries (the server's
	// Options.CacheHints["resources/read"] otherwise).
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
	Read ResourceFunc
}

// Link returns a resource_link content block for r, for a tool result that
// points at this registered resource.
func (r Resource) Link() *protocol.ResourceLink {
	return &protocol.ResourceLink{
		URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description,
		MimeType: r.MimeType, Size: r.Size, Annotations: r.Annotations,
	}
}

// ResourceTemplateFunc reads a resource a template matched: uri is the
// concrete URI read, vars the values of the template's variables
// (percent-decoded; data, never a path to trust).
type ResourceTemplateFunc func(ctx context.Context, uri string, vars map[string]string) ([]ResourceContents, error)

// ResourceTemplate is a family of resources named by an RFC 6570 URI
// template.
type ResourceTemplate struct {
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
	Icons []protocol.Icon
	// Annotations are optional hints for the client.
	Annotations *protocol.Annotations
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
	Read ResourceTemplateFunc
	// Complete holds completion providers by variable name, for clients
	// that help a user fill in the template (completion/complete with a
	// ref/resource naming this URI template).
	Complete map[string]CompleteFunc
}

// TextContents returns text contents.
func TextContents(uri, mimeType, text string) ResourceContents {
	return ResourceContents{Text: &protocol.TextResourceContents{URI: uri, MimeType: mimeType, Text: text}}
}

// BlobContents returns binary contents, base64-encoded.
func BlobContents(uri, mimeType string, data []byte) ResourceContents {
	return ResourceContents{Blob: &protocol.BlobResourceContents{URI: uri, MimeType: mimeType, Blob: base64.StdEncoding.EncodeToString(data)}}
}

// StaticRead returns a read function that always answers with content, at
// the URI read, so a static resource names its URI once: text for a
// string, binary data (base64-encoded once, here) for a []byte. The
// contents carry no MIME type of their own, so the server sends them with
// the resource's MimeType (see Resource).
func StaticRead[T string | []byte](content T) ResourceFunc {
	var blob string
	text, isText := any(content).(string)
	if !isText {
		blob = base64.StdEncoding.EncodeToString(any(content).([]byte))
	}
	return func(_ context.Context, uri string) ([]ResourceContents, error) {
		if isText {
			return []ResourceContents{{Text: &protocol.TextResourceContents{URI: uri, Text: text}}}, nil
		}
		return []ResourceContents{{Blob: &protocol.BlobResourceContents{URI: uri, Blob: blob}}}, nil
	}
}

// withMimeType returns contents, with mimeType given to each item at uri
// that names no MIME type (copied, never written to: a read function may
// return the same contents every time).
func withMimeType(contents []ResourceContents, uri, mimeType string) []ResourceContents {
	if mimeType == "" {
		return contents
	}
	out, copied := contents, false
	for i, c := range contents {
		switch {
		case c.Text != nil && c.Text.URI == uri && c.Text.MimeType == "":
			t := *c.Text
			t.MimeType = mimeType
			c.Text = &t
		case c.Blob != nil && c.Blob.URI == uri && c.Blob.MimeType == "":
			b := *c.Blob
			b.MimeType = mimeType
			c.Blob = &b
		default:
			continue
		}
		if !copied {
			out, copied = slices.Clone(contents), true
		}
		out[i] = c
	}
	return out
}
