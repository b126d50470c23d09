package review

import (
	"testing"

	"github.com/mcpwire/mcpwire/protocol"
)

// plainCases are results the fast path must read right: plain says it
// takes them (for a tool without an outputSchema, on 2026-07-28).
var plainCases = []struct {
	res   string
	plain bool
}{
	{`{"resultType":"complete","content":[{"type":"text","text":"hi"}]}`, true},
	{`{"resultType":"complete","content":[],"isError":true,"_meta":{"x":1}}`, true},
	{`{"content":[{"text":"a","type":"text"},{"type":"text","text":"b"}],"resultType":"complete"}`, true},
	{`{"content":[{"type":"text","text":"hi"}]}`, false},                      // no resultType: advised
	{`{"resultType":"complete","content":[{"type":"text","text":1}]}`, false}, // text not a string
	{`{"resultType":"complete","content":[{"type":"image","data":"aGk=","mimeType":"image/png"}]}`, false},
	{`{"resultType":"complete","content":[{"type":"text","text":"hi","_meta":{}}]}`, false},
	{`{"resultType":"complete","content":[{"type":"text","text":"hi"}],"isError":"no"}`, false},
	{`{"resultType":"complete","content":[{"type":"text","text":"hi"}],"structuredContent":{}}`, false},
	{`{"resultType":"input_required","inputRequests":{}}`, false},
	{`{"resultType":"complete","content":{}}`, false},
	{`{"resultType":"complete","c\u006fntent":[]}`, false},
	{`{"resultType":"complete","content":[{"type":"text","text":"hi"}],"extra":1}`, false},
	{`{"resultType":"complete","content":[{"type":"text","text":"hi"}]`, false},
	{`[]`, false},
}

// The fast path takes the plain results, and leaves the others to the
// full review.
func TestPlainResult(t *testing.T) {
	for _, c := range plainCases {
		if got := plainResult(protocol.Revision20260728, []byte(`{"name":"t","inputSchema":{"type":"object"}}`), []byte(c.res)); got != c.plain {
			t.Errorf("%s: plain %v, want %v", c.res, got, c.plain)
		}
	}
	sum := []byte(sumTool) // declares an outputSchema
	if plainResult(protocol.Revision20260728, sum, []byte(plainCases[0].res)) {
		t.Error("a result of a tool with an outputSchema was taken as plain")
	}
}

// Whatever the fast path takes, the full review finds nothing wrong with,
// in every revision.
func FuzzPlainResult(f *testing.F) {
	for _, c := range plainCases {
		f.Add([]byte(`{"name":"t","inputSchema":{"type":"object"}}`), []byte(c.res))
	}
	f.Add([]byte(sumTool), []byte(plainCases[0].res))
	f.Fuzz(func(t *testing.T, desc, res []byte) {
		for _, rev := range revisions() {
			if plainResult(protocol.ParseRevision(rev), desc, res) {
				if ps := fullResult(rev, desc, res); len(ps) > 0 {
					t.Fatalf("%s, %s on %s: taken as plain, but the review finds %+v", desc, res, rev, ps)
				}
			}
		}
	})
}
