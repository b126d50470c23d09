package review

import (
	"mime"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/contract"
	"github.com/mcpwire/mcpwire/tool"
)

// block checks one content block at path (DIGEST §5).
func block(rep *report, r rev, path string, raw json.RawMessage) {
	b, ok := object(raw)
	if !ok {
		rep.add(RuleContentBlock, path, "a content block must be a JSON object, not %s", kind(raw))
		return
	}
	typ, ok := text(b["type"])
	switch {
	case !ok:
		rep.add(RuleContentType, at(path, "type"), "the block's type is missing or not a string")
		return
	case typ == "text":
		required(rep, RuleContentField, path, b, "text")
	case typ == "image":
		media(rep, path, b, "image")
	case typ == "audio" && r.hasAudio():
		media(rep, path, b, "audio")
	case typ == "resource_link" && r.hasResourceLink():
		link(rep, path, b)
	case typ == "resource":
		embedded(rep, path, b)
	case typ == "audio":
		rep.add(RuleContentType, at(path, "type"), "audio blocks exist from 2025-03-26 on, not in %s", r)
		return
	case typ == "resource_link":
		rep.add(RuleContentType, at(path, "type"), "resource_link blocks exist from 2025-06-18 on, not in %s", r)
		return
	default:
		rep.add(RuleContentType, at(path, "type"), "%s is not a content block type (text, image, audio, resource_link or resource)", quoted(typ))
		return
	}
	annotations(rep, path, b)
}

// media checks an image or audio block: base64 data and a mimeType of
// the block's family.
func media(rep *report, path string, b members, family string) {
	if data, ok := required(rep, RuleContentField, path, b, "data"); ok {
		switch {
		case data == "":
			rep.add(RuleContentField, at(path, "data"), "data is empty")
		case !isBase64(data):
			rep.add(RuleContentBase64, at(path, "data"), "data is not valid base64 (standard alphabet, padded, no line breaks)")
		}
	}
	if mt, ok := required(rep, RuleContentField, path, b, "mimeType"); ok {
		parsed, _, err := mime.ParseMediaType(mt)
		if err != nil || !strings.HasPrefix(parsed, family+"/") {
			rep.add(RuleContentMIME, at(path, "mimeType"), "mimeType %s is not an %s/* media type", quoted(mt), family)
		}
	}
}

// link checks a resource_link block: an absolute uri, a name, and the
// optional Resource members.
func link(rep *report, path string, b members) {
	if uri, ok := required(rep, RuleContentField, path, b, "uri"); ok && !isAbsoluteURI(uri) {
		rep.add(RuleContentURI, at(path, "uri"), "uri is not an absolute URI (it needs a scheme, such as file: or https:)")
	}
	required(rep, RuleContentField, path, b, "name")
	optionalStrings(rep, path, b, "title", "description", "mimeType")
	size(rep, path, b)
}

// embedded checks a resource block: its resource holds an absolute uri
// and exactly one of text and blob, the blob in base64.
func embedded(rep *report, path string, b members) {
	raw, ok := b["resource"]
	c, isObj := object(raw)
	if !ok || !isObj {
		rep.add(RuleContentField, at(path, "resource"), "resource must be an object holding uri and text or blob")
		return
	}
	path = at(path, "resource")
	if uri, ok := required(rep, RuleContentField, path, c, "uri"); ok && !isAbsoluteURI(uri) {
		rep.add(RuleContentURI, at(path, "uri"), "uri is not an absolute URI (it needs a scheme, such as file: or https:)")
	}
	optionalStrings(rep, path, c, "mimeType")
	_, hasText := c["text"]
	_, hasBlob := c["blob"]
	switch {
	case hasText && hasBlob:
		rep.add(RuleContentResource, path, "an embedded resource holds text or blob, not both")
	case hasText:
		required(rep, RuleContentField, path, c, "text")
	case hasBlob:
		if blob, ok := required(rep, RuleContentField, path, c, "blob"); ok && !isBase64(blob) {
			rep.add(RuleContentBase64, at(path, "blob"), "blob is not valid base64 (standard alphabet, padded, no line breaks)")
		}
	default:
		rep.add(RuleContentResource, path, "an embedded resource holds text or blob, and this one has neither")
	}
}

// size checks an optional size: a number of bytes, not negative.
func size(rep *report, path string, m members) {
	raw, ok := m["size"]
	if !ok {
		return
	}
	var n float64
	if kind(raw) != "number" || json.Unmarshal(raw, &n) != nil || n < 0 {
		rep.add(RuleFieldType, at(path, "size"), "size must be a number of bytes, not negative")
	}
}

// annotations checks an object's optional annotations (audience,
// priority, lastModified) by the server's own rules.
func annotations(rep *report, path string, m members) {
	raw, ok := m["annotations"]
	if !ok {
		return
	}
	path = at(path, "annotations")
	a, ok := object(raw)
	if !ok {
		rep.add(RuleContentAnnotations, path, "annotations must be an object, not %s", kind(raw))
		return
	}
	var ann tool.ContentAnnotations
	for _, f := range []struct {
		key string
		dst any
	}{{"audience", &ann.Audience}, {"priority", &ann.Priority}, {"lastModified", &ann.LastModified}} {
		if v, ok := a[f.key]; ok && (kind(v) == "null" || json.Unmarshal(v, f.dst) != nil) {
			rep.add(RuleContentAnnotations, at(path, f.key), "annotations.%s has the wrong type (audience is an array of strings, priority a number, lastModified a string)", f.key)
			return
		}
	}
	if err := contract.CheckBlock(&tool.Text{Annotations: &ann}); err != nil {
		rep.add(RuleContentAnnotations, path, "%v", err)
	}
}

// isBase64 applies the server's base64 rule (standard alphabet, padded,
// no line breaks): package contract's check of a blob.
func isBase64(s string) bool {
	return contract.CheckContents(tool.ResourceContents{URI: "data:,", IsBlob: true, Blob: s}) == nil
}

// isAbsoluteURI applies the server's URI rule (a scheme, then anything a
// URI parser accepts): package contract's check of a resource's uri.
func isAbsoluteURI(s string) bool {
	return contract.CheckContents(tool.ResourceContents{URI: s}) == nil
}
