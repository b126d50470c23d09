package protocol

import (
	"testing"

	json "github.com/goccy/go-json"
)

// benchResult is a tools/call result with the tagged content blocks a
// server sends most: text, an image, a resource link and an embedded
// resource.
const benchResult = `{"resultType":"complete","content":[` +
	`{"type":"text","text":"hello, world"},` +
	`{"type":"text","text":"second block","annotations":{"audience":["user"]}},` +
	`{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},` +
	`{"type":"resource_link","uri":"file:///a.txt","name":"a.txt"},` +
	`{"type":"resource","resource":{"uri":"file:///b.txt","text":"b"}}],"isError":false}`

// BenchmarkContentEncode encodes a result whose content blocks write their
// own "type".
func BenchmarkContentEncode(b *testing.B) {
	var res CallToolResult
	if err := json.Unmarshal([]byte(benchResult), &res); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(res); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkContentDecode decodes the same result, each block checking its
// "type".
func BenchmarkContentDecode(b *testing.B) {
	data := []byte(benchResult)
	b.ReportAllocs()
	for b.Loop() {
		var res CallToolResult
		if err := json.Unmarshal(data, &res); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTextEncode encodes one text block built as a user would.
func BenchmarkTextEncode(b *testing.B) {
	c := &TextContent{Text: "hello, world"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(c); err != nil {
			b.Fatal(err)
		}
	}
}
