package mcp

import (
	"reflect"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/feature"
	"github.com/mcpwire/mcpwire/protocol"
)

// fullBlock returns a block of type t (a variant of protocol.ContentBlock)
// with every member a revision may lack set: _meta, annotations with
// lastModified, icons, and the _meta of embedded contents.
func fullBlock(t reflect.Type) protocol.Content {
	v := reflect.New(t)
	half := 0.5
	set := map[string]any{
		"Meta":        protocol.Meta{"k": json.RawMessage(`1`)},
		"Annotations": &protocol.Annotations{Priority: &half, LastModified: "2025-01-12T15:00:58Z"},
		"Icons":       []protocol.Icon{{Src: "https://example.com/i.png"}},
		"Resource": protocol.ResourceContents{Text: &protocol.TextResourceContents{
			URI: "file:///a", Text: "a", Meta: protocol.Meta{"k": json.RawMessage(`1`)}}},
		"MimeType": "image/png",
	}
	for name, x := range set {
		if f := v.Elem().FieldByName(name); f.IsValid() && f.Type() == reflect.TypeOf(x) {
			f.Set(reflect.ValueOf(x))
		}
	}
	return v.Interface().(protocol.Content)
}

// Every block type protocol defines has a projection case: for every
// revision, projecting a block that carries every optional member
// succeeds, and leaves nothing the revision does not define. A block type
// added to protocol.ContentBlock without a case fails here.
func TestProjectionCoversEveryBlockType(t *testing.T) {
	u := reflect.TypeFor[protocol.ContentBlock]()
	for i := range u.NumField() {
		c := fullBlock(u.Field(i).Type.Elem())
		for _, r := range protocol.Revisions() {
			p, err := projectContent(c, r)
			if err != nil {
				t.Errorf("%s at %s: %v", c.ContentType(), r, err)
				continue
			}
			b, err := json.Marshal(p)
			if err != nil {
				t.Fatalf("%s at %s: %v", c.ContentType(), r, err)
			}
			lacks := map[string]bool{
				`"_meta"`:                !feature.ContentMeta(r),
				`"lastModified"`:         !feature.ContentMeta(r),
				`"icons"`:                !feature.Icons(r),
				`"type":"audio"`:         !feature.Audio(r),
				`"type":"resource_link"`: !feature.ResourceLinks(r),
			}
			for member, lacked := range lacks {
				if lacked && strings.Contains(string(b), member) {
					t.Errorf("%s at %s keeps %s: %s", c.ContentType(), r, member, b)
				}
			}
		}
	}
}

// A block no case knows (here, none at all) is an error, not a block sent
// as it is.
func TestProjectionRefusesUnknownBlocks(t *testing.T) {
	if _, err := projectContent(nil, protocol.Revision20241105); err == nil {
		t.Error("projecting a nil block succeeded")
	}
}
