package contract

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/tool"
)

// CheckBlock reports the first problem of a content block that would make
// it invalid on the wire, as checkContent does, for blocks outside a tool
// result (a prompt's messages).
func CheckBlock(c tool.Content) error { return checkContent(c) }

// checkContent reports the first problem of a content block that would
// make it invalid on the wire: a required field missing or empty (image
// and audio data and mimeType, resource_link uri and name, embedded
// resource uri), base64 that does not decode (standard alphabet, padded,
// no line breaks), a URI that is not absolute, a negative size, and
// annotations out of range (audience other than "user" or "assistant",
// priority outside [0, 1], lastModified not an RFC 3339 timestamp). A nil
// block or a type package tool does not define is a problem too: it cannot
// be checked.
func checkContent(c tool.Content) error {
	switch b := c.(type) {
	case *tool.Text:
		if b == nil {
			return errNilBlock
		}
		return checkAnnotations(b.Annotations)
	case *tool.Image:
		if b == nil {
			return errNilBlock
		}
		return checkMedia("image", b.Data, b.MimeType, b.Annotations)
	case *tool.Audio:
		if b == nil {
			return errNilBlock
		}
		return checkMedia("audio", b.Data, b.MimeType, b.Annotations)
	case *tool.ResourceLink:
		if b == nil {
			return errNilBlock
		}
		return checkLink(b)
	case *tool.EmbeddedResource:
		if b == nil {
			return errNilBlock
		}
		return checkEmbedded(b)
	case nil:
		return errNilBlock
	}
	// Content is sealed, so no other type reaches here.
	return fmt.Errorf("unknown content block type %q", c.ContentType())
}

var errNilBlock = errors.New("content block is nil")

func checkMedia(kind, data, mimeType string, ann *tool.ContentAnnotations) error {
	switch {
	case data == "":
		return fmt.Errorf("%s: data is missing", kind)
	case !isBase64(data):
		return fmt.Errorf("%s: data is not valid base64 (standard alphabet, padded, no line breaks)", kind)
	case mimeType == "":
		return fmt.Errorf("%s: mimeType is missing", kind)
	}
	if err := checkAnnotations(ann); err != nil {
		return fmt.Errorf("%s: %w", kind, err)
	}
	return nil
}

func checkLink(l *tool.ResourceLink) error {
	if err := checkURI(l.URI); err != nil {
		return fmt.Errorf("resource_link: %w", err)
	}
	switch {
	case l.Name == "":
		return errors.New("resource_link: name is missing")
	case l.Size != nil && *l.Size < 0:
		return fmt.Errorf("resource_link: size %d is negative", *l.Size)
	}
	if err := checkAnnotations(l.Annotations); err != nil {
		return fmt.Errorf("resource_link: %w", err)
	}
	return nil
}

func checkEmbedded(e *tool.EmbeddedResource) error {
	if err := CheckContents(e.Resource); err != nil {
		return fmt.Errorf("resource: %w", err)
	}
	if err := checkAnnotations(e.Annotations); err != nil {
		return fmt.Errorf("resource: %w", err)
	}
	return nil
}

// CheckContents reports the first problem of a resource's contents, as
// embedded in a tool result or read by resources/read: a URI that is
// missing or not absolute, or a blob that is not standard, padded base64.
func CheckContents(c tool.ResourceContents) error {
	if err := checkURI(c.URI); err != nil {
		return err
	}
	if c.IsBlob && !isBase64(c.Blob) {
		return errors.New("blob is not valid base64 (standard alphabet, padded, no line breaks)")
	}
	return nil
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

func checkAnnotations(a *tool.ContentAnnotations) error {
	if a == nil {
		return nil
	}
	for _, who := range a.Audience {
		if who != "user" && who != "assistant" {
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
