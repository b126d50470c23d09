package contract

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// Kind says which rule a [Finding] breaks.
type Kind int

// The rules a content block may break.
const (
	KindBlock       Kind = iota + 1 // the block is nil
	KindMissing                     // a required member is empty
	KindBase64                      // data or blob is not standard, padded base64
	KindMediaType                   // an image's or audio's mimeType is empty
	KindURI                         // a uri is missing or not absolute
	KindResource                    // embedded contents hold neither text nor blob
	KindSize                        // a size is negative
	KindAnnotations                 // annotations out of range
	KindMeta                        // a _meta value that is not JSON
)

// Finding is one problem of a content block.
type Finding struct {
	// Kind is the rule broken.
	Kind Kind
	// Field is a JSON pointer to the member at fault, from the block
	// ("/data", "/resource/blob", "/annotations"); "" for the whole block.
	Field string
	// Message is one sentence naming the member, such as "data is not
	// valid base64 (...)".
	Message string
}

// CheckBlock reports the first problem of a content block that would make
// it invalid on the wire (see [Check]), prefixed by the block's type
// except for text blocks: "image: data is missing". The server checks
// every block a handler returns with it, in a tool result or a prompt's
// messages.
func CheckBlock(c protocol.Content) error {
	f := Check(c)
	if len(f) == 0 {
		return nil
	}
	if f[0].Kind == KindBlock {
		return errNilBlock
	}
	if _, text := c.(*protocol.TextContent); text {
		return errors.New(f[0].Message)
	}
	return fmt.Errorf("%s: %s", c.ContentType(), f[0].Message)
}

var errNilBlock = errors.New("content block is nil")

// Check returns the problems of a content block that would make it invalid
// on the wire, in the order of its members, nil for a valid block: a
// required member empty (text aside, whose text may be empty), base64 that
// does not decode (standard alphabet, padded, no line breaks), a URI that
// is missing or not absolute, a negative size, annotations out of range
// (audience other than "user" or "assistant", priority outside [0, 1],
// lastModified not an RFC 3339 timestamp) and a _meta value that is not
// JSON. A nil block cannot be checked, which is a problem too. The server
// (after a handler returns) and the reviewer (after it decodes another
// server's result) both judge blocks by it: one case per block type.
func Check(c protocol.Content) []Finding {
	if isNil(c) {
		return nilBlock
	}
	var (
		fs   findings
		ann  *protocol.Annotations
		meta protocol.Meta
	)
	switch b := c.(type) {
	case *protocol.TextContent:
		ann, meta = b.Annotations, b.Meta
	case *protocol.ImageContent:
		fs.media(b.Data, b.MimeType)
		ann, meta = b.Annotations, b.Meta
	case *protocol.AudioContent:
		fs.media(b.Data, b.MimeType)
		ann, meta = b.Annotations, b.Meta
	case *protocol.ResourceLink:
		fs.uri("/uri", b.URI)
		if b.Name == "" {
			fs.add(KindMissing, "/name", "name is missing")
		}
		if b.Size != nil && *b.Size < 0 {
			fs.add(KindSize, "/size", fmt.Sprintf("size %d is negative", *b.Size))
		}
		ann, meta = b.Annotations, b.Meta
	case *protocol.EmbeddedResource:
		fs.contents("/resource", b.Resource)
		ann, meta = b.Annotations, b.Meta
	default: // Content is sealed, so no other type reaches here
		return nilBlock
	}
	fs.annotations(ann)
	fs.meta(meta)
	return fs
}

// isNil reports whether c is nil or a nil pointer to a block.
func isNil(c protocol.Content) bool {
	v := reflect.ValueOf(c)
	return !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil()
}

var nilBlock = []Finding{{Kind: KindBlock, Message: errNilBlock.Error()}}

// findings collects the problems of one block.
type findings []Finding

func (fs *findings) add(k Kind, field, msg string) {
	*fs = append(*fs, Finding{Kind: k, Field: field, Message: msg})
}

func (fs *findings) media(data, mimeType string) {
	switch {
	case data == "":
		fs.add(KindMissing, "/data", "data is missing")
	case !isBase64(data):
		fs.add(KindBase64, "/data", "data is not valid base64 (standard alphabet, padded, no line breaks)")
	}
	if mimeType == "" {
		fs.add(KindMediaType, "/mimeType", "mimeType is missing")
	}
}

func (fs *findings) uri(field, uri string) {
	if err := checkURI(uri); err != nil {
		fs.add(KindURI, field, err.Error())
	}
}

// contents checks a resource's contents at field: a uri, exactly one of
// text and blob, the blob in base64, and JSON _meta values.
func (fs *findings) contents(field string, c protocol.ResourceContents) {
	switch {
	case c.Text != nil:
		fs.uri(field+"/uri", c.Text.URI)
		fs.meta(c.Text.Meta)
	case c.Blob != nil:
		fs.uri(field+"/uri", c.Blob.URI)
		if !isBase64(c.Blob.Blob) {
			fs.add(KindBase64, field+"/blob", "blob is not valid base64 (standard alphabet, padded, no line breaks)")
		}
		fs.meta(c.Blob.Meta)
	default:
		fs.add(KindResource, field, "the contents hold neither text nor blob")
	}
}

func (fs *findings) annotations(a *protocol.Annotations) {
	if err := checkAnnotations(a); err != nil {
		fs.add(KindAnnotations, "/annotations", err.Error())
	}
}

// meta requires every _meta value to be JSON (tool.BlockMeta keeps a
// value it cannot encode as an empty one).
func (fs *findings) meta(m protocol.Meta) {
	for k, v := range m {
		if !json.Valid(v) {
			fs.add(KindMeta, "/_meta", fmt.Sprintf("_meta key %q does not hold a JSON value", k))
			return
		}
	}
}

// CheckContents reports the first problem of a resource's contents, as
// embedded in a tool result or read by resources/read: a URI that is
// missing or not absolute, a blob that is not standard, padded base64, or
// neither text nor blob.
func CheckContents(c protocol.ResourceContents) error {
	var fs findings
	fs.contents("", c)
	if len(fs) == 0 {
		return nil
	}
	return errors.New(fs[0].Message)
}

// checkURI requires an absolute URI: a scheme, then anything a URI parser
// accepts.
func checkURI(uri string) error {
	if uri == "" {
		return errors.New("uri is missing")
	}
	u, err := url.Parse(uri)
	if err != nil {
		return fmt.Errorf("uri %q does not parse: %v", uri, errors.Unwrap(err))
	}
	if !u.IsAbs() {
		return fmt.Errorf("uri %q is not absolute (it needs a scheme, such as file: or https:)", uri)
	}
	return nil
}

func checkAnnotations(a *protocol.Annotations) error {
	if a == nil {
		return nil
	}
	for _, who := range a.Audience {
		if who != protocol.RoleUser && who != protocol.RoleAssistant {
			return fmt.Errorf(`annotations.audience: %q is not "user" or "assistant"`, who)
		}
	}
	if p := a.Priority; p != nil && (math.IsNaN(*p) || *p < 0 || *p > 1) {
		return fmt.Errorf("annotations.priority: %v is outside [0, 1]", *p)
	}
	if a.LastModified != "" {
		if _, err := time.Parse(time.RFC3339Nano, a.LastModified); err != nil {
			return fmt.Errorf("annotations.lastModified: %q is not an ISO 8601 (RFC 3339) timestamp such as 2025-01-12T15:00:58Z", a.LastModified)
		}
	}
	return nil
}

// isBase64 reports whether s is standard, padded base64, without
// allocating: a multiple of four characters from the standard alphabet,
// with at most two '=' at the very end, and zero unused bits before them
// (the form a strict decoder accepts).
func isBase64(s string) bool {
	if len(s)%4 != 0 {
		return false
	}
	pad := 0
	if strings.HasSuffix(s, "==") {
		pad = 2
	} else if strings.HasSuffix(s, "=") {
		pad = 1
	}
	body := s[:len(s)-pad]
	for i := 0; i < len(body); i++ {
		if b64Value[body[i]] < 0 {
			return false
		}
	}
	if pad == 0 {
		return true
	}
	// The last data character must not carry bits beyond the data.
	last := b64Value[body[len(body)-1]]
	if pad == 2 {
		return last&0x0f == 0
	}
	return last&0x03 == 0
}

// b64Value maps a byte to its standard base64 value, -1 for none.
var b64Value = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := 0; i < len(alphabet); i++ {
		t[alphabet[i]] = int8(i)
	}
	return t
}()
