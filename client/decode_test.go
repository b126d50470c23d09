package client

import (
	"reflect"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/protocol"
)

// decodeCases are results, common and odd, that the fast path must read
// exactly as the decoder does; plain says the fast path reads it (the
// others it leaves to the decoder).
var decodeCases = []struct {
	raw   string
	plain bool
}{
	{`{"content":[{"type":"text","text":"hi"}]}`, true},
	{`{"resultType":"complete","content":[{"type":"text","text":"hi"}],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}`, true},
	{`{"content":[],"isError":true}`, true},
	{`{"content":[{"type":"text","text":"a\nb \u00e9 \ud83d\ude00"},{"text":"x","type":"text"}],"isError":false}`, true},
	{`{"content":[{"type":"text","text":"hi"}],"structuredContent":{"n":1,"s":[1,2]}}`, true},
	{`{"content":[{"type":"text","text":"hi"}],"structuredContent":null}`, false},
	{`{"content":[{"type":"text","text":"hi"}],"isError":null,"_meta":null}`, false},
	{`{"content":[{"type":"text","text":"hi","annotations":{"priority":1}}]}`, false},
	{`{"content":[{"type":"image","data":"aGk=","mimeType":"image/png"}]}`, false},
	{`{"content":[{"type":"text","text":"a","text":"b"}]}`, false},
	{`{"content":[{"t\u0079pe":"text","text":"hi"}]}`, true},
	{`{"c\u006fntent":[{"type":"text","text":"hi"}]}`, false},
	{`{"resultType":"task","content":[]}`, false},
	{`{"resultType":"input_required"}`, true},
	{`{"content":[{"type":"text","text":"hi"}],"extra":1}`, false},
	{`{"content":[{"type":"text","text":"hi"}],"content":[{"type":"text","text":"again"}]}`, true},
	{`{"content":[{"type":"text","text":1}]}`, false},
	{`{"content":{}}`, false},
	{`{"isError":"yes","content":[]}`, false},
	{`{"_meta":{"progressToken":1,"x":{"y":[]}},"content":[]}`, true},
	{` { "content" : [ { "type" : "text" , "text" : "spaced" } ] } `, true},
	{`[]`, false},
	{`null`, false},
	{`{`, false},
}

// The fast path reads every result exactly as the decoder does.
func TestDecodeResultMatchesDecoder(t *testing.T) {
	for _, c := range decodeCases {
		checkDecode(t, []byte(c.raw))
	}
}

// The fast path is taken for the commonest result: the test above would
// pass with the decoder alone.
func TestDecodeResultPlainPath(t *testing.T) {
	for _, c := range decodeCases {
		var r protocol.CallToolResult
		if got := plainResult([]byte(c.raw), &r); got != c.plain {
			t.Errorf("%s: read on the plain path %v, want %v", c.raw, got, c.plain)
		}
	}
}

func FuzzDecodeResult(f *testing.F) {
	for _, c := range decodeCases {
		f.Add([]byte(c.raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkDecode(t, raw) })
}

// checkDecode compares decodeResult with json.Unmarshal on raw, when raw
// is JSON the wire's decoder would let through (decodeResult is only given
// results of decoded messages).
func checkDecode(t *testing.T, raw []byte) {
	t.Helper()
	if _, ok := (&jsonx.Scanner{}).Scan(raw); !ok {
		return
	}
	var want protocol.CallToolResult
	wantErr := json.Unmarshal(raw, &want)
	got, err := decodeResult(raw)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%s: error %v, the decoder's %v", raw, err, wantErr)
	}
	if err == nil && !reflect.DeepEqual(*got, want) {
		t.Fatalf("%s:\n got %#v\nwant %#v", raw, *got, want)
	}
}
