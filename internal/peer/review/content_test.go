package review

import (
	"testing"

	json "github.com/goccy/go-json"
)

// blocks is a result holding the given content blocks.
func blocks(bs string) string { return `{"content":[` + bs + `]}` }

const (
	png = `"iVBORw0KGgo="` // base64 of a PNG signature
	wav = `"UklGRg=="`     // base64 of "RIFF"
)

var contentCases = []ruleCase{
	{name: "block not an object", rev: r3, res: blocks(`"text"`), rule: RuleContentBlock, path: "/content/0"},
	{name: "block null", rev: r3, res: blocks(`{"type":"text","text":"a"},null`), rule: RuleContentBlock, path: "/content/1"},
	{name: "type missing", rev: r3, res: blocks(`{"text":"a"}`), rule: RuleContentType, path: "/content/0/type"},
	{name: "type not a string", rev: r3, res: blocks(`{"type":1,"text":"a"}`), rule: RuleContentType, path: "/content/0/type"},
	{name: "type unknown", rev: r3, res: blocks(`{"type":"video","data":"AA=="}`), rule: RuleContentType, path: "/content/0/type"},
	{name: "type of another case", rev: r3, res: blocks(`{"type":"Text","text":"a"}`), rule: RuleContentType, path: "/content/0/type"},
	{name: "sampling-only tool_use", rev: r3, res: blocks(`{"type":"tool_use","id":"1","name":"n","input":{}}`), rule: RuleContentType, path: "/content/0/type"},
	{name: "audio in 2024-11-05", rev: r0, res: blocks(`{"type":"audio","data":` + wav + `,"mimeType":"audio/wav"}`), rule: RuleContentType, path: "/content/0/type"},
	{name: "resource_link in 2025-03-26", rev: r1, res: blocks(`{"type":"resource_link","uri":"file:///a","name":"a"}`), rule: RuleContentType, path: "/content/0/type"},

	{name: "text missing", rev: r3, res: blocks(`{"type":"text"}`), rule: RuleContentField, path: "/content/0/text"},
	{name: "text a number", rev: r3, res: blocks(`{"type":"text","text":5}`), rule: RuleContentField, path: "/content/0/text"},
	{name: "image data missing", rev: r3, res: blocks(`{"type":"image","mimeType":"image/png"}`), rule: RuleContentField, path: "/content/0/data"},
	{name: "image data empty", rev: r3, res: blocks(`{"type":"image","data":"","mimeType":"image/png"}`), rule: RuleContentField, path: "/content/0/data"},
	{name: "image mimeType missing", rev: r3, res: blocks(`{"type":"image","data":` + png + `}`), rule: RuleContentField, path: "/content/0/mimeType"},
	{name: "audio data an array", rev: r1, res: blocks(`{"type":"audio","data":[1],"mimeType":"audio/wav"}`), rule: RuleContentField, path: "/content/0/data"},
	{name: "link uri missing", rev: r2, res: blocks(`{"type":"resource_link","name":"a"}`), rule: RuleContentField, path: "/content/0/uri"},
	{name: "link name missing", rev: r2, res: blocks(`{"type":"resource_link","uri":"file:///a"}`), rule: RuleContentField, path: "/content/0/name"},
	{name: "link name a number", rev: rM, res: modern(blocks(`{"type":"resource_link","uri":"file:///a","name":1}`)), rule: RuleContentField, path: "/content/0/name"},
	{name: "resource missing", rev: r3, res: blocks(`{"type":"resource"}`), rule: RuleContentField, path: "/content/0/resource"},
	{name: "resource a string", rev: r3, res: blocks(`{"type":"resource","resource":"file:///a"}`), rule: RuleContentField, path: "/content/0/resource"},
	{name: "resource uri missing", rev: r3, res: blocks(`{"type":"resource","resource":{"text":"a"}}`), rule: RuleContentField, path: "/content/0/resource/uri"},
	{name: "resource text a number", rev: r3, res: blocks(`{"type":"resource","resource":{"uri":"a:b","text":1}}`), rule: RuleContentField, path: "/content/0/resource/text"},
	{name: "resource blob null", rev: r3, res: blocks(`{"type":"resource","resource":{"uri":"a:b","blob":null}}`), rule: RuleContentField, path: "/content/0/resource/blob"},

	{name: "image data not base64", rev: r3, res: blocks(`{"type":"image","data":"not base64!","mimeType":"image/png"}`), rule: RuleContentBase64, path: "/content/0/data"},
	{name: "audio data unpadded", rev: r1, res: blocks(`{"type":"audio","data":"UklGRg","mimeType":"audio/wav"}`), rule: RuleContentBase64, path: "/content/0/data"},
	{name: "image data URL alphabet", rev: r3, res: blocks(`{"type":"image","data":"-_-_","mimeType":"image/png"}`), rule: RuleContentBase64, path: "/content/0/data"},
	{name: "image data with a line break", rev: r3, res: blocks(`{"type":"image","data":"iVBO\nRw0KGgo=","mimeType":"image/png"}`), rule: RuleContentBase64, path: "/content/0/data"},
	{name: "image data a data URL", rev: r3, res: blocks(`{"type":"image","data":"data:image/png;base64,iVBORw0KGgo=","mimeType":"image/png"}`), rule: RuleContentBase64, path: "/content/0/data"},
	{name: "blob not base64", rev: r3, res: blocks(`{"type":"resource","resource":{"uri":"a:b","blob":"a b"}}`), rule: RuleContentBase64, path: "/content/0/resource/blob"},

	{name: "image of audio type", rev: r3, res: blocks(`{"type":"image","data":` + png + `,"mimeType":"audio/wav"}`), rule: RuleContentMIME, path: "/content/0/mimeType"},
	{name: "image mimeType bare", rev: r3, res: blocks(`{"type":"image","data":` + png + `,"mimeType":"png"}`), rule: RuleContentMIME, path: "/content/0/mimeType"},
	{name: "image mimeType empty", rev: r3, res: blocks(`{"type":"image","data":` + png + `,"mimeType":""}`), rule: RuleContentMIME, path: "/content/0/mimeType"},
	{name: "image mimeType family only", rev: r3, res: blocks(`{"type":"image","data":` + png + `,"mimeType":"image/"}`), rule: RuleContentMIME, path: "/content/0/mimeType"},
	{name: "audio of image type", rev: rM, res: modern(blocks(`{"type":"audio","data":` + wav + `,"mimeType":"image/png"}`)), rule: RuleContentMIME, path: "/content/0/mimeType"},
	{name: "audio octet-stream", rev: r2, res: blocks(`{"type":"audio","data":` + wav + `,"mimeType":"application/octet-stream"}`), rule: RuleContentMIME, path: "/content/0/mimeType"},

	{name: "link uri relative", rev: r2, res: blocks(`{"type":"resource_link","uri":"docs/a.txt","name":"a"}`), rule: RuleContentURI, path: "/content/0/uri"},
	{name: "link uri does not parse", rev: r3, res: blocks(`{"type":"resource_link","uri":"http://[::1","name":"a"}`), rule: RuleContentURI, path: "/content/0/uri"},
	{name: "resource uri empty", rev: r3, res: blocks(`{"type":"resource","resource":{"uri":"","text":"a"}}`), rule: RuleContentURI, path: "/content/0/resource/uri"},
	{name: "resource uri relative", rev: r0, res: blocks(`{"type":"resource","resource":{"uri":"/a","text":"a"}}`), rule: RuleContentURI, path: "/content/0/resource/uri"},

	{name: "resource with text and blob", rev: r3, res: blocks(`{"type":"resource","resource":{"uri":"a:b","text":"a","blob":"AA=="}}`), rule: RuleContentResource, path: "/content/0/resource"},
	{name: "resource with neither", rev: r3, res: blocks(`{"type":"resource","resource":{"uri":"a:b","mimeType":"text/plain"}}`), rule: RuleContentResource, path: "/content/0/resource"},

	{name: "link size negative", rev: r2, res: blocks(`{"type":"resource_link","uri":"file:///a","name":"a","size":-1}`), rule: RuleFieldType, path: "/content/0/size"},
	{name: "link size a string", rev: r3, res: blocks(`{"type":"resource_link","uri":"file:///a","name":"a","size":"1kB"}`), rule: RuleFieldType, path: "/content/0/size"},
	{name: "link title a number", rev: r3, res: blocks(`{"type":"resource_link","uri":"file:///a","name":"a","title":1}`), rule: RuleFieldType, path: "/content/0/title"},
	{name: "resource mimeType null", rev: r3, res: blocks(`{"type":"resource","resource":{"uri":"a:b","text":"a","mimeType":null}}`), rule: RuleFieldType, path: "/content/0/resource/mimeType"},

	{name: "annotations not an object", rev: r3, res: blocks(`{"type":"text","text":"a","annotations":["user"]}`), rule: RuleContentAnnotations, path: "/content/0/annotations"},
	{name: "priority above 1", rev: r3, res: blocks(`{"type":"text","text":"a","annotations":{"priority":2}}`), rule: RuleContentAnnotations, path: "/content/0/annotations"},
	{name: "priority a string", rev: r3, res: blocks(`{"type":"text","text":"a","annotations":{"priority":"high"}}`), rule: RuleContentAnnotations, path: "/content/0/annotations/priority"},
	{name: "audience unknown", rev: rM, res: modern(blocks(`{"type":"image","data":` + png + `,"mimeType":"image/png","annotations":{"audience":["bot"]}}`)), rule: RuleContentAnnotations, path: "/content/0/annotations"},
	{name: "audience a string", rev: r3, res: blocks(`{"type":"text","text":"a","annotations":{"audience":"user"}}`), rule: RuleContentAnnotations, path: "/content/0/annotations/audience"},
	{name: "audience null", rev: r3, res: blocks(`{"type":"text","text":"a","annotations":{"audience":null}}`), rule: RuleContentAnnotations, path: "/content/0/annotations/audience"},
	{name: "lastModified not a timestamp", rev: r2, res: blocks(`{"type":"resource_link","uri":"a:b","name":"n","annotations":{"lastModified":"yesterday"}}`), rule: RuleContentAnnotations, path: "/content/0/annotations"},
	{name: "embedded annotations", rev: r3, res: blocks(`{"type":"resource","resource":{"uri":"a:b","text":"a"},"annotations":{"priority":-0.5}}`), rule: RuleContentAnnotations, path: "/content/0/annotations"},
}

func TestContentRules(t *testing.T) {
	for _, c := range contentCases {
		t.Run(c.name, func(t *testing.T) {
			checkOne(t, Result(c.rev, json.RawMessage(plainTool), json.RawMessage(c.res)), GateConsume, c.rule, c.path)
		})
	}
}

// Blocks at the edges of the rules pass, in every revision that has them.
func TestContentAccepted(t *testing.T) {
	for _, c := range []struct{ name, from, block string }{
		{"empty text", r0, `{"type":"text","text":""}`},
		{"text with annotations", r0, `{"type":"text","text":"a","annotations":{"audience":["user","assistant"],"priority":0}}`},
		{"lastModified", r2, `{"type":"text","text":"a","annotations":{"lastModified":"2025-01-12T15:00:58Z","priority":1}}`},
		{"image with parameters", r0, `{"type":"image","data":` + png + `,"mimeType":"image/svg+xml; charset=utf-8"}`},
		{"image mimeType in capitals", r0, `{"type":"image","data":` + png + `,"mimeType":"IMAGE/PNG"}`},
		{"audio", r1, `{"type":"audio","data":` + wav + `,"mimeType":"audio/wav"}`},
		{"link with every member", r2, `{"type":"resource_link","uri":"https://example.com/a?b#c","name":"a","title":"A","description":"d","mimeType":"text/plain","size":0,"_meta":{}}`},
		{"link of a URN", r2, `{"type":"resource_link","uri":"urn:isbn:0451450523","name":"book","size":12.0}`},
		{"embedded empty text", r0, `{"type":"resource","resource":{"uri":"test://a","text":""}}`},
		{"embedded empty blob", r0, `{"type":"resource","resource":{"uri":"test://a","blob":""}}`},
		{"block _meta", r2, `{"type":"text","text":"a","_meta":{"com.example/k":"v"}}`},
	} {
		for _, rev := range revisions() {
			if rev < c.from {
				continue
			}
			res := blocks(c.block)
			if rev == rM {
				res = modern(res)
			}
			t.Run(c.name+"/"+rev, func(t *testing.T) {
				checkNone(t, Result(rev, json.RawMessage(plainTool), json.RawMessage(res)))
			})
		}
	}
}
