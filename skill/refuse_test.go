package skill_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/skill"
)

// tampered serves the entry of a clean pdf-processing skill while its
// SKILL.md resource says body; reads records every resources/read.
func tampered(t *testing.T, body string) (*mcp.Server, *[]string) {
	t.Helper()
	clean := skill.NewSet(skill.Options{})
	if err := clean.AddFiles("pdf-processing", map[string]string{"SKILL.md": pdfSkill, "references/FORMS.md": "Supporting content.\n"}); err != nil {
		t.Fatal(err)
	}
	ext := clean.Extension()
	ext.Attach = nil // the resources are the tampered ones below
	srv := mcp.NewServer(mcp.Implementation{Name: "tampered", Version: "1"}, &mcp.Options{Logger: quiet, Extensions: []mcp.Extension{ext}})
	var mu sync.Mutex
	reads := &[]string{}
	for uri, text := range map[string]string{"skill://pdf-processing/SKILL.md": body, "skill://pdf-processing/references/FORMS.md": "Supporting content.\n"} {
		srv.MustAddResource(mcp.Resource{URI: uri, Name: uri, Read: func(ctx context.Context, uri string) ([]mcp.ResourceContents, error) {
			mu.Lock()
			*reads = append(*reads, uri)
			mu.Unlock()
			return mcp.StaticRead(text)(ctx, uri)
		}})
	}
	return srv, reads
}

// A SKILL.md that differs from its entry is refused for the rule it
// breaks, before the skill is handed over, and no other file is read.
func TestLoadRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       error
	}{
		{"same size, other bytes", strings.Replace(pdfSkill, "Skill body.", "Evil body!!", 1), skill.ErrDigestMismatch},
		{"bytes added", pdfSkill + "extra bytes the entry did not account for\n", skill.ErrSizeMismatch},
		{"no frontmatter", strings.Repeat("x", len(pdfSkill)), skill.ErrDigestMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, reads := tampered(t, tc.body)
			c := serve(t, srv)
			for e, err := range skill.List(bounded(t), c) {
				if err != nil {
					t.Fatal(err)
				}
				if sk, err := skill.Load(bounded(t), c, e); !errors.Is(err, tc.want) || sk != nil {
					t.Fatalf("Load: %v, %v; want %v", sk, err, tc.want)
				}
			}
			if strings.Join(*reads, " ") != "skill://pdf-processing/SKILL.md" {
				t.Errorf("reads %v; want SKILL.md alone", *reads)
			}
		})
	}
}

// A SKILL.md whose digest and size match a manifest recomputed over it,
// but whose frontmatter is not the entry's, is refused for that.
func TestLoadRefusesFrontmatter(t *testing.T) {
	evil := strings.Replace(pdfSkill, "Extract, fill, and assemble PDF documents", "Exfiltrate credentials", 1)
	honest := skill.NewSet(skill.Options{})
	if err := honest.AddFiles("pdf-processing", map[string]string{"SKILL.md": evil}); err != nil {
		t.Fatal(err)
	}
	c := serve(t, newServer(t, honest, 0))
	for e, err := range skill.List(bounded(t), c) {
		if err != nil {
			t.Fatal(err)
		}
		e.Frontmatter = []byte(`{"name":"pdf-processing","description":"Extract, fill, and assemble PDF documents","metadata":{"version":2.1}}`)
		if _, err := skill.Load(bounded(t), c, e); !errors.Is(err, skill.ErrFrontmatterMismatch) {
			t.Fatalf("Load: %v; want ErrFrontmatterMismatch", err)
		}
		e.Frontmatter = []byte(`{"name":"pdf-processing","description":"Exfiltrate credentials","metadata":{"version":"2.1"}}`)
		if _, err := skill.Load(bounded(t), c, e); !errors.Is(err, skill.ErrFrontmatterMismatch) {
			t.Fatalf("Load with a string for YAML's number: %v; want ErrFrontmatterMismatch", err)
		}
		e.Frontmatter = []byte(`{"name":"pdf-processing","description":"Exfiltrate credentials","metadata":{"version":2.1},"extra":null}`)
		if _, err := skill.Load(bounded(t), c, e); err != nil {
			t.Fatalf("Load with the same frontmatter (a null member as absent): %v", err)
		}
	}
}

// A Set refuses, when a skill is added, what the extension forbids, with
// the rule named.
func TestAddRefuses(t *testing.T) {
	ok := "---\nname: ok\ndescription: Fine\n---\n"
	many := map[string]string{"SKILL.md": ok}
	for i := range skill.MaxFiles {
		many["f"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+strings.Repeat("0", i/26)] = "x"
	}
	for _, tc := range []struct {
		name, path string
		files      map[string]string
		want       string
	}{
		{"no SKILL.md", "ok", map[string]string{"README.md": "x"}, "no SKILL.md"},
		{"no frontmatter", "ok", map[string]string{"SKILL.md": "# ok\n"}, "frontmatter block"},
		{"no description", "ok", map[string]string{"SKILL.md": "---\nname: ok\n---\n"}, "non-empty string name and description"},
		{"another name", "other", map[string]string{"SKILL.md": ok}, `names it "ok"`},
		{"a bad name", "Bad_Name", map[string]string{"SKILL.md": ok}, "naming rule"},
		{"a double hyphen", "a--b", map[string]string{"SKILL.md": ok}, "naming rule"},
		{"a space in a file name", "ok", map[string]string{"SKILL.md": ok, "my file.md": "x"}, "not one of"},
		{"a dot-dot path", "../ok", map[string]string{"SKILL.md": ok}, ". or .."},
		{"too many files", "ok", many, "limit of 512"},
		{"too many bytes", "ok", map[string]string{"SKILL.md": ok, "big.bin": strings.Repeat("x", skill.MaxBytes)}, "limit of 16777216"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := skill.NewSet(skill.Options{}).AddFiles(tc.path, tc.files)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("AddFiles: %v; want %q", err, tc.want)
			}
		})
	}
	set := skill.NewSet(skill.Options{})
	if err := set.AddFiles("ok", map[string]string{"SKILL.md": ok}); err != nil {
		t.Fatal(err)
	}
	if err := set.AddFiles("ok", map[string]string{"SKILL.md": ok}); err == nil || !strings.Contains(err.Error(), "added already") {
		t.Errorf("a skill twice: %v", err)
	}
	if err := skill.NewSet(skill.Options{}).AddFS(fstest.MapFS{"SKILL.md": {Data: []byte(ok)}}); err == nil {
		t.Error("a SKILL.md at the root was added")
	}
}
