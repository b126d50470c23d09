package contract_test

import (
	"encoding/base64"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/contract"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

func TestCheckContent(t *testing.T) {
	png := base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n"))
	tests := []struct {
		name  string
		block tool.Content
		want  string // "" for valid
	}{
		{"text", tool.NewText(""), ""},
		{"text with annotations", tool.NewText("t", tool.Audience("user", "assistant"), tool.Priority(1), tool.LastModified(time.Unix(0, 5).UTC())), ""},
		{"image", tool.NewImage([]byte{1, 2, 3}, "image/png"), ""},
		{"audio", tool.NewAudio([]byte("RIFF"), "audio/wav"), ""},
		{"resource link", tool.NewResourceLink("file:///project/a.txt", "a.txt", tool.LinkSize(0)), ""},
		{"resource link with a custom scheme", tool.NewResourceLink("test://static-text", "s"), ""},
		{"embedded text", tool.NewEmbeddedText("https://example.com/a", "text/plain", "hi"), ""},
		{"embedded text without mimeType", tool.NewEmbeddedText("https://example.com/a", "", ""), ""},
		{"embedded blob", tool.NewEmbeddedBlob("file:///a.bin", "application/octet-stream", []byte{0, 1}), ""},
		{"empty embedded blob", tool.NewEmbeddedBlob("file:///a.bin", "", nil), ""},

		{"nil interface", nil, "content block is nil"},
		{"nil text", (*tool.Text)(nil), "content block is nil"},
		{"nil image", (*tool.Image)(nil), "content block is nil"},
		{"image without data", &tool.Image{MimeType: "image/png"}, "image: data is missing"},
		{"image without mimeType", &tool.Image{Data: png}, "image: mimeType is missing"},
		{"image with bad base64", &tool.Image{Data: "abc", MimeType: "image/png"}, "image: data is not valid base64"},
		{"image with url-safe base64", &tool.Image{Data: "-_-_", MimeType: "image/png"}, "not valid base64"},
		{"image with line breaks", &tool.Image{Data: png[:4] + "\n" + png[4:], MimeType: "image/png"}, "not valid base64"},
		{"image with unpadded base64", &tool.Image{Data: strings.TrimRight(base64.StdEncoding.EncodeToString([]byte{1}), "="), MimeType: "image/png"}, "not valid base64"},
		{"image with padding in the middle", &tool.Image{Data: "AA==AAAA", MimeType: "image/png"}, "not valid base64"},
		{"image with stray bits", &tool.Image{Data: "AB==", MimeType: "image/png"}, "not valid base64"},
		{"audio without data", &tool.Audio{MimeType: "audio/wav"}, "audio: data is missing"},
		{"audio without mimeType", &tool.Audio{Data: png}, "audio: mimeType is missing"},
		{"audio with bad base64", &tool.Audio{Data: "!!!!", MimeType: "audio/wav"}, "audio: data is not valid base64"},
		{"link without uri", &tool.ResourceLink{Name: "n"}, "resource_link: uri is missing"},
		{"link with relative uri", tool.NewResourceLink("docs/a.md", "a"), `resource_link: uri "docs/a.md" is not absolute`},
		{"link with unparsable uri", tool.NewResourceLink("http://[::1", "a"), "does not parse"},
		{"link without name", tool.NewResourceLink("file:///a", ""), "resource_link: name is missing"},
		{"link with negative size", tool.NewResourceLink("file:///a", "a", tool.LinkSize(-1)), "resource_link: size -1 is negative"},
		{"link with bad annotations", tool.NewResourceLink("file:///a", "a", tool.Audience("bot")), `resource_link: annotations.audience: "bot"`},
		{"embedded without uri", &tool.EmbeddedResource{Resource: protocol.ResourceContents{Text: &protocol.TextResourceContents{Text: "x"}}}, "resource: uri is missing"},
		{"embedded with relative uri", tool.NewEmbeddedText("a.txt", "text/plain", "x"), "resource: uri \"a.txt\" is not absolute"},
		{"embedded blob with bad base64", &tool.EmbeddedResource{Resource: protocol.ResourceContents{Blob: &protocol.BlobResourceContents{URI: "file:///a", Blob: "a"}}}, "resource: blob is not valid base64"},
		{"embedded without contents", &tool.EmbeddedResource{}, "resource: the contents hold neither text nor blob"},
		{"_meta value that does not encode", tool.NewText("t", tool.BlockMeta(map[string]any{"k": make(chan int)})), `_meta key "k" does not hold a JSON value`},
		{"audience", tool.NewText("t", tool.Audience("user", "system")), `annotations.audience: "system" is not "user" or "assistant"`},
		{"priority above 1", tool.NewText("t", tool.Priority(1.5)), "annotations.priority: 1.5 is outside [0, 1]"},
		{"priority below 0", tool.NewImage([]byte{1}, "image/png", tool.Priority(-1)), "image: annotations.priority: -1 is outside [0, 1]"},
		{"priority NaN", tool.NewText("t", tool.Priority(math.NaN())), "annotations.priority: NaN"},
		{"lastModified not ISO 8601", &tool.Text{Annotations: &protocol.Annotations{LastModified: "yesterday"}}, `annotations.lastModified: "yesterday" is not an ISO 8601`},
		{"lastModified without zone", &tool.Text{Annotations: &protocol.Annotations{LastModified: "2025-01-12T15:00:58"}}, "annotations.lastModified"},
		{"lastModified with offset", &tool.Text{Annotations: &protocol.Annotations{LastModified: "2025-01-12T15:00:58.5+02:00"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := contract.CheckBlock(tt.block)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("CheckContent = %v, want valid", err)
			case tt.want != "" && err == nil:
				t.Errorf("CheckContent accepted the block, want %q", tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Errorf("CheckContent = %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

// The allocation-free base64 check agrees with a strict decoder.
func TestBase64CheckAgreesWithDecoder(t *testing.T) {
	strict := base64.StdEncoding.Strict()
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n"
	check := func(s string) {
		_, err := strict.DecodeString(s)
		want := err == nil && !strings.ContainsAny(s, "\r\n")
		got := contract.CheckBlock(&tool.Image{Data: s, MimeType: "m"}) == nil
		if s == "" {
			want = false // empty data is "missing"
		}
		if got != want {
			t.Errorf("%q: check says %v, strict decoder says %v", s, got, want)
		}
	}
	for n := range 64 {
		b := make([]byte, n)
		for range 20 {
			for i := range b {
				b[i] = byte(r.UintN(256))
			}
			enc := base64.StdEncoding.EncodeToString(b)
			check(enc)
			if len(enc) > 0 {
				mutated := []byte(enc)
				mutated[r.IntN(len(mutated))] = alphabet[r.IntN(len(alphabet))]
				check(string(mutated))
			}
		}
	}
}

func TestContentWireForm(t *testing.T) {
	at := time.Date(2025, 1, 12, 15, 0, 58, 0, time.FixedZone("CET", 3600))
	tests := []struct {
		name  string
		block tool.Content
		want  string
	}{
		{"text", tool.NewText("hi"), `{"type":"text","text":"hi"}`},
		{"text with everything", tool.NewText("hi", tool.Audience("user"), tool.Priority(0.5), tool.LastModified(at), tool.BlockMeta(map[string]any{"k": 1})),
			`{"type":"text","text":"hi","annotations":{"audience":["user"],"priority":0.5,"lastModified":"2025-01-12T14:00:58Z"},"_meta":{"k":1}}`},
		{"image", tool.NewImage([]byte("abc"), "image/png"), `{"type":"image","data":"YWJj","mimeType":"image/png"}`},
		{"audio", tool.NewAudio([]byte("abc"), "audio/wav"), `{"type":"audio","data":"YWJj","mimeType":"audio/wav"}`},
		{"resource link", tool.NewResourceLink("file:///a", "a", tool.LinkTitle("A"), tool.LinkDescription("d"), tool.LinkMimeType("text/plain"), tool.LinkSize(3)),
			`{"type":"resource_link","uri":"file:///a","name":"a","title":"A","description":"d","mimeType":"text/plain","size":3}`},
		{"embedded text", tool.NewEmbeddedText("file:///a", "text/plain", ""), `{"type":"resource","resource":{"uri":"file:///a","mimeType":"text/plain","text":""}}`},
		{"embedded blob", tool.NewEmbeddedBlob("file:///a", "", []byte("abc")), `{"type":"resource","resource":{"uri":"file:///a","blob":"YWJj"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.block)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("got  %s\nwant %s", b, tt.want)
			}
			if err := contract.CheckBlock(tt.block); err != nil {
				t.Errorf("a constructor built an invalid block: %v", err)
			}
		})
	}
}

// Options that set nothing leave the block as bare as before: no empty
// annotations or audience on the wire.
func TestEmptyOptionsAddNothing(t *testing.T) {
	b, err := json.Marshal(tool.NewText("hi", tool.Audience(), tool.BlockMeta(nil)))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"type":"text","text":"hi"}` {
		t.Errorf("got %s", b)
	}
}
