package review

import (
	"mime"
	"reflect"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/contract"
	"github.com/mcpwire/mcpwire/internal/feature"
	"github.com/mcpwire/mcpwire/protocol"
)

// block checks one content block at path (the specification's "Tool
// Result" content types): a type the revision defines, members of the
// shape the type's wire struct declares (see shape), then the rules the
// server holds its own blocks to (contract.Check) and, for an image or
// audio block, a media type of that family.
func block(rep *report, r protocol.Revision, path string, raw json.RawMessage) {
	b, ok := object(raw)
	if !ok {
		rep.add(RuleContentBlock, path, "a content block must be a JSON object, not %s", kind(raw))
		return
	}
	tb, ok := str(b["type"])
	if !ok {
		rep.add(RuleContentType, at(path, "type"), "the block's type is missing or not a string")
		return
	}
	if string(tb) == protocol.TypeText && len(b) == 2 {
		if _, ok := str(b["text"]); ok {
			return // the commonest block, {"type":"text","text":…}: nothing more to check
		}
	}
	typ := string(tb)
	t, ok := blockTypes[typ]
	if !ok {
		rep.add(RuleContentType, at(path, "type"), "%s is not a content block type (text, image, audio, resource_link or resource)", quoted(typ))
		return
	}
	if gate := blockGates[typ]; gate != nil && !gate(r) {
		rep.add(RuleContentType, at(path, "type"), "%s blocks exist from %s on, not in %s", typ, firstWith(gate), r)
		return
	}
	n := len(rep.list)
	kept := shape(rep, path, b, t)
	if len(rep.list) > n {
		return
	}
	var c protocol.ContentBlock
	enc, err := json.Marshal(kept)
	if err == nil {
		err = c.UnmarshalJSON(enc)
	}
	if err != nil {
		rep.add(RuleContentField, path, "the %s block does not decode as one: %s", typ, clipped(err.Error()))
		return
	}
	mimeReported := false
	for _, f := range contract.Check(c.Content()) {
		msg := f.Message
		if f.Kind == contract.KindURI {
			msg = "uri is not an absolute URI (it needs a scheme, such as file: or https:)"
		}
		mimeReported = mimeReported || f.Field == "/mimeType"
		rep.add(findingRules[f.Kind], path+f.Field, "%s", msg)
	}
	if _, media := mediaTypes[typ]; media && !mimeReported {
		mediaType(rep, path, b, typ)
	}
}

// blockTypes are the content block types by their "type" value: the
// variants of protocol.ContentBlock, read from its fields, so that a new
// block type is known here once protocol defines it.
var blockTypes = func() map[string]reflect.Type {
	m := map[string]reflect.Type{}
	u := reflect.TypeFor[protocol.ContentBlock]()
	for i := range u.NumField() {
		t := u.Field(i).Type.Elem()
		m[reflect.New(t).Interface().(protocol.Content).ContentType()] = t
	}
	return m
}()

// blockGates are the block types later revisions added, by the gate of
// the revision that added each.
var blockGates = map[string]func(protocol.Revision) bool{
	protocol.TypeAudio:        feature.Audio,
	protocol.TypeResourceLink: feature.ResourceLinks,
}

// mediaTypes are the block types whose mimeType must name their family
// (image/*, audio/*).
var mediaTypes = map[string]struct{}{protocol.TypeImage: {}, protocol.TypeAudio: {}}

// firstWith returns the first revision gate holds in.
func firstWith(gate func(protocol.Revision) bool) protocol.Revision {
	for _, r := range protocol.Revisions() {
		if gate(r) {
			return r
		}
	}
	return protocol.RevisionUnknown
}

// findingRules are the rules of package contract's findings.
var findingRules = map[contract.Kind]string{
	contract.KindBlock:       RuleContentBlock,
	contract.KindMissing:     RuleContentField,
	contract.KindBase64:      RuleContentBase64,
	contract.KindMediaType:   RuleContentMIME,
	contract.KindURI:         RuleContentURI,
	contract.KindResource:    RuleContentResource,
	contract.KindSize:        RuleFieldType,
	contract.KindAnnotations: RuleContentAnnotations,
	contract.KindMeta:        RuleFieldType,
}

// mediaType checks that an image's or audio's mimeType is a media type of
// the block's family.
func mediaType(rep *report, path string, b members, family string) {
	mt, _ := text(b["mimeType"])
	parsed, _, err := mime.ParseMediaType(mt)
	if err != nil || !strings.HasPrefix(parsed, family+"/") {
		rep.add(RuleContentMIME, at(path, "mimeType"), "mimeType %s is not an %s/* media type", quoted(mt), family)
	}
}
