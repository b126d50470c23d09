package skill

import (
	"testing"

	json "github.com/goccy/go-json"
)

// What a server sends a client, an entry and a SKILL.md, is read without
// a panic whatever it is, and an entry read writes back to one that
// reads the same.
func FuzzPeerInput(f *testing.F) {
	f.Add([]byte(`{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"b"},"resources":"dynamic"}`),
		[]byte("---\nname: a\ndescription: b\n---\n"))
	f.Add([]byte(`{"uri":"x","frontmatter":{},"resources":[{"uri":"x","digest":"sha256:00","size":1}]}`),
		[]byte("\uFEFF---\r\nname: [a, {b: c}]\r\n---"))
	f.Fuzz(func(t *testing.T, entry, text []byte) {
		var e Entry
		if json.Unmarshal(entry, &e) == nil {
			b, err := json.Marshal(e)
			if err != nil {
				t.Fatalf("an entry read does not write: %v", err)
			}
			var again Entry
			if err := json.Unmarshal(b, &again); err != nil || again.URI != e.URI || again.Dynamic != e.Dynamic || len(again.Files) != len(e.Files) {
				t.Fatalf("%s read back as %+v, %v", b, again, err)
			}
		}
		if fm, err := parseFrontmatter(text); err == nil {
			if fm.name == "" || !sameFrontmatter(fm.json, fm.json) {
				t.Fatalf("frontmatter %s", fm.json)
			}
		}
	})
}
