package protocol

// Resource is a resource a server can read, as resources/list lists it.
type Resource struct {
	// URI identifies the resource; required.
	URI string `json:"uri"`
	// Name is for programmatic use, and the display name when Title is
	// empty; required.
	Name string `json:"name"`
	// Title is the display name.
	Title string `json:"title,omitempty"`
	// Description says what the resource is.
	Description string `json:"description,omitempty"`
	// MimeType is the resource's MIME type, if known.
	MimeType string `json:"mimeType,omitempty"`
	// Size is the raw content size in bytes, if known.
	Size *int64 `json:"size,omitempty"`
	// Icons are sized icons a client may display.
	Icons []Icon `json:"icons,omitzero"`
	// Annotations are optional hints for the client.
	Annotations *Annotations `json:"annotations,omitempty"`
	// Meta is the resource's _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// ResourceTemplate describes a family of resources by an RFC 6570 URI
// template.
type ResourceTemplate struct {
	// URITemplate builds the resources' URIs; required.
	URITemplate string `json:"uriTemplate"`
	// Name is for programmatic use, and the display name when Title is
	// empty; required.
	Name string `json:"name"`
	// Title is the display name.
	Title string `json:"title,omitempty"`
	// Description says what the resources are.
	Description string `json:"description,omitempty"`
	// MimeType is the MIME type of every matching resource, if they share
	// one.
	MimeType string `json:"mimeType,omitempty"`
	// Icons are sized icons a client may display.
	Icons []Icon `json:"icons,omitzero"`
	// Annotations are optional hints for the client.
	Annotations *Annotations `json:"annotations,omitempty"`
	// Meta is the template's _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// TextResourceContents is a resource's contents as text.
type TextResourceContents struct {
	// URI identifies the resource; required.
	URI string `json:"uri"`
	// MimeType is the contents' MIME type, if known.
	MimeType string `json:"mimeType,omitempty"`
	// Text is the contents; required.
	Text string `json:"text"`
	// Meta is the contents' _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// BlobResourceContents is a resource's contents as binary data.
type BlobResourceContents struct {
	// URI identifies the resource; required.
	URI string `json:"uri"`
	// MimeType is the contents' MIME type, if known.
	MimeType string `json:"mimeType,omitempty"`
	// Blob is the contents, base64-encoded; required.
	Blob string `json:"blob"`
	// Meta is the contents' _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// ResourceContents is text or binary contents: exactly one of its fields
// is set. The schema gives the two no tag, so decoding tells them apart by
// their "text" or "blob" member; an object with both or neither is an
// error.
type ResourceContents struct {
	Text *TextResourceContents // has "text"
	Blob *BlobResourceContents // has "blob"
}

// URI is the URI of whichever variant is set, "" for neither.
func (c ResourceContents) URI() string {
	switch {
	case c.Text != nil:
		return c.Text.URI
	case c.Blob != nil:
		return c.Blob.URI
	}
	return ""
}

// resourceContents is ResourceContents' union, its variants named by the
// member only each has.
var resourceContents = union[ResourceContents]{
	tag: "resource contents",
	pick: func(data []byte) (string, error) {
		f, err := members(data, "text", "blob")
		switch {
		case err != nil:
			return "", err
		case f[0] != nil && f[1] != nil:
			return "", errorf("resource contents have both text and blob")
		case f[0] != nil:
			return "text", nil
		case f[1] != nil:
			return "blob", nil
		}
		return "", errorf("resource contents have neither text nor blob")
	},
	cases: []unionCase[ResourceContents]{
		variant("text", func(c *ResourceContents) **TextResourceContents { return &c.Text }),
		variant("blob", func(c *ResourceContents) **BlobResourceContents { return &c.Blob }),
	},
}

// MarshalJSON encodes the one variant that is set.
func (c ResourceContents) MarshalJSON() ([]byte, error) {
	return marshalVariant("resource contents", c.Text, c.Blob)
}

// UnmarshalJSON decodes contents into the variant whose member it has.
func (c *ResourceContents) UnmarshalJSON(data []byte) error {
	return resourceContents.unmarshal(data, c)
}
