package review

import (
	"reflect"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/contract"
	"github.com/mcpwire/mcpwire/protocol"
)

// shape checks the members of the block b at path against t, the Go
// struct of its type in package protocol, field by field: a string field
// without omitempty is a required member (rule content-field), an
// optional string must be a string, a size a number of bytes, annotations
// of their shape, an embedded resource's contents of theirs. Members of
// other types (icons, _meta) are not reviewed. It returns the members the
// block decodes from: its type and the reviewed ones.
func shape(rep *report, path string, b members, t reflect.Type) members {
	kept := members{"type": b["type"]}
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		v, present := b[name]
		optional := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
		switch {
		case f.Type.Kind() == reflect.String && !optional:
			required(rep, RuleContentField, path, b, name)
		case f.Type.Kind() == reflect.String:
			optionalStrings(rep, path, b, name)
		case f.Type == annotationsType:
			annotationsShape(rep, path, b)
		case f.Type == contentsType:
			contents(rep, path, b, name)
		case f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Int64:
			size(rep, path, b, name)
			continue // an integral number may be spelled 12.0: not decoded
		default:
			continue
		}
		if present {
			kept[name] = v
		}
	}
	return kept
}

var (
	annotationsType = reflect.TypeFor[*protocol.Annotations]()
	contentsType    = reflect.TypeFor[protocol.ResourceContents]()
)

// contents checks a resource's contents, the member key of b: an object
// holding a uri, optional mimeType and exactly one of text and blob, all
// strings.
func contents(rep *report, path string, b members, key string) {
	raw, ok := b[key]
	c, isObj := object(raw)
	if !ok || !isObj {
		rep.add(RuleContentField, at(path, key), "%s must be an object holding uri and text or blob", key)
		return
	}
	path = at(path, key)
	required(rep, RuleContentField, path, c, "uri")
	optionalStrings(rep, path, c, "mimeType")
	_, hasText := c["text"]
	_, hasBlob := c["blob"]
	switch {
	case hasText && hasBlob:
		rep.add(RuleContentResource, path, "an embedded resource holds text or blob, not both")
	case hasText:
		required(rep, RuleContentField, path, c, "text")
	case hasBlob:
		required(rep, RuleContentField, path, c, "blob")
	default:
		rep.add(RuleContentResource, path, "an embedded resource holds text or blob, and this one has neither")
	}
}

// size checks the optional member key of m: a number of bytes, not
// negative.
func size(rep *report, path string, m members, key string) {
	raw, ok := m[key]
	if !ok {
		return
	}
	var n float64
	if kind(raw) != "number" || json.Unmarshal(raw, &n) != nil || n < 0 {
		rep.add(RuleFieldType, at(path, key), "%s must be a number of bytes, not negative", key)
	}
}

// annotations checks an object's optional annotations (audience,
// priority, lastModified): their shape, then their range by the server's
// own rules.
func annotations(rep *report, path string, m members) {
	ann, ok := annotationsShape(rep, path, m)
	if !ok {
		return
	}
	if err := contract.CheckBlock(&protocol.TextContent{Annotations: ann}); err != nil {
		rep.add(RuleContentAnnotations, at(path, "annotations"), "%v", err)
	}
}

// annotationsShape checks the shape of an object's optional annotations
// and returns them decoded; false when they are absent or misshapen.
func annotationsShape(rep *report, path string, m members) (*protocol.Annotations, bool) {
	a, ok := optionalObject(rep, RuleContentAnnotations, path, m, "annotations")
	if !ok {
		return nil, false
	}
	path = at(path, "annotations")
	var ann protocol.Annotations
	for _, f := range []struct {
		key string
		dst any
	}{{"audience", &ann.Audience}, {"priority", &ann.Priority}, {"lastModified", &ann.LastModified}} {
		if v, ok := a[f.key]; ok && (kind(v) == "null" || json.Unmarshal(v, f.dst) != nil) {
			rep.add(RuleContentAnnotations, at(path, f.key), "annotations.%s has the wrong type (audience is an array of strings, priority a number, lastModified a string)", f.key)
			return nil, false
		}
	}
	return &ann, true
}

// isAbsoluteURI applies the server's URI rule (a scheme, then anything a
// URI parser accepts): package contract's check of a resource's uri.
func isAbsoluteURI(s string) bool {
	return contract.CheckContents(protocol.ResourceContents{Text: &protocol.TextResourceContents{URI: s}}) == nil
}
