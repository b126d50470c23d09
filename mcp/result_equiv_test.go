package mcp

import (
	stdjson "encoding/json"
	"testing"
	"time"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpwire/mcpwire/internal/feature"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// typedCallResult encodes a tool result through the wire model, the way
// every other result is encoded: the reference that the hand-appended hot
// path (encodeCallResult) must equal.
func typedCallResult(t testing.TB, s *Server, e *entry, res *tool.Result, req *request) []byte {
	t.Helper()
	r := req.rev
	out := &protocol.CallToolResult{Content: []protocol.ContentBlock{}}
	for _, c := range res.Content {
		b, err := projectContent(c, protocol.Revision(r))
		if err != nil {
			t.Fatal(err)
		}
		out.Content = append(out.Content, protocol.BlockOf(b))
	}
	if res.Structured != nil && feature.Structured(r) {
		v, err := structuredJSON(res.Structured)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Modern() && e.needsWrap(v) {
			v = wrapResult(v)
		}
		out.StructuredContent = v
	}
	if res.IsError {
		isError := true
		out.IsError = &isError
	}
	if len(res.Meta) > 0 {
		m, err := resultMetaOf(res.Meta)
		if err != nil {
			t.Fatal(err)
		}
		out.Meta = m
	}
	s.fillEnvelope(out, req)
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The tools/call result is appended by hand on the hot path; for every
// kind of result and every revision it equals the typed encoding.
func TestCallResultEqualsTypedEncoding(t *testing.T) {
	s := NewServer(Implementation{Name: "eq", Version: "1", Title: "Eq"}, nil)
	objectTool := &entry{tool: &tool.Tool{Name: "o", OutputSchema: json.RawMessage(`{"type":"object"}`)}, objectOutput: true}
	arrayTool := &entry{tool: &tool.Tool{Name: "a", OutputSchema: json.RawMessage(`{"type":"array"}`)}}
	plainTool := &entry{tool: &tool.Tool{Name: "p"}}
	results := []struct {
		name string
		e    *entry
		res  *tool.Result
	}{
		{"text", plainTool, tool.TextResult("hello \"world\"\n")},
		{"empty", plainTool, &tool.Result{}},
		{"error", plainTool, tool.ErrorResult("failed: %d", 3)},
		{"blocks", plainTool, &tool.Result{Content: []tool.Content{
			tool.NewText("t", tool.Audience("user"), tool.Priority(0.5), tool.BlockMeta(map[string]any{"k": "v"})),
			tool.NewText("dated", tool.LastModified(time.Unix(0, 0))),
			tool.NewImage([]byte{1, 2}, "image/png"),
			tool.NewAudio([]byte("RIFF"), "audio/wav"),
			tool.NewResourceLink("file:///a.txt", "a.txt"),
			&tool.ResourceLink{URI: "file:///i.txt", Name: "i.txt", Icons: []protocol.Icon{{Src: "https://example.com/i.png"}}},
			tool.NewEmbeddedText("file:///b.txt", "text/plain", "b"),
			tool.NewEmbeddedBlob("file:///c.bin", "", []byte{0}),
			&tool.EmbeddedResource{Resource: protocol.ResourceContents{Text: &protocol.TextResourceContents{
				URI: "file:///d.txt", Text: "d", Meta: protocol.Meta{"k": json.RawMessage(`1`)}}}},
		}}},
		{"object structured", objectTool, &tool.Result{Content: []tool.Content{tool.NewText(`{"a":1}`)}, Structured: json.RawMessage(`{"a":1}`)}},
		{"array structured", arrayTool, &tool.Result{Content: []tool.Content{tool.NewText(`[1]`)}, Structured: []int{1}}},
		{"scalar without schema", plainTool, &tool.Result{Content: []tool.Content{tool.NewText(`3`)}, Structured: 3}},
		{"result meta", plainTool, &tool.Result{Content: []tool.Content{}, Meta: map[string]any{"forge.patterns": []string{"read:a"}}}},
		{"meta naming serverInfo", plainTool, &tool.Result{Meta: map[string]any{protocol.MetaServerInfo: "spoofed", "x": 1}}},
	}
	revs := []struct {
		name string
		rev  protocol.Revision
	}{{"2024-11-05", protocol.Revision20241105}, {"2025-03-26", protocol.Revision20250326}, {"2025-06-18", protocol.Revision20250618}, {"2025-11-25", protocol.Revision20251125}, {"2026-07-28", protocol.Revision20260728}}
	for _, tt := range results {
		for _, rv := range revs {
			req := &request{method: "tools/call", rev: rv.rev}
			got, err := s.encodeCallResult(tt.e, tt.res, req)
			if err != nil {
				t.Fatalf("%s at %s: %v", tt.name, rv.name, err)
			}
			want := typedCallResult(t, s, tt.e, tt.res, req)
			var g, w any
			if err := stdjson.Unmarshal(got, &g); err != nil {
				t.Fatalf("%s at %s: hand-appended JSON is invalid: %v\n%s", tt.name, rv.name, err, got)
			}
			stdjson.Unmarshal(want, &w)
			if d := cmp.Diff(w, g); d != "" {
				t.Errorf("%s at %s: hand-appended differs from typed (-typed +hand):\n%s", tt.name, rv.name, d)
			}
		}
	}
}

// BenchmarkCallResultEncoding compares the hand-appended tools/call result
// with the typed encoding it equals, for an echo's one text block: what
// keeps the hand encoder on the hot path.
func BenchmarkCallResultEncoding(b *testing.B) {
	s := NewServer(Implementation{Name: "bench", Version: "1"}, nil)
	e := &entry{tool: &tool.Tool{Name: "echo"}}
	res := tool.TextResult("hello")
	for _, rv := range []struct {
		name string
		req  *request
	}{{"2025-11-25", &request{method: "tools/call", rev: protocol.Revision20251125}}, {"2026-07-28", &request{method: "tools/call", rev: protocol.Revision20260728}}} {
		b.Run("hand/"+rv.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.encodeCallResult(e, res, rv.req); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("typed/"+rv.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				typedCallResult(b, s, e, res, rv.req)
			}
		})
	}
}
