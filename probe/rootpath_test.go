package probe

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Root.Path checks a path once and gives both forms; its pattern is the
// one Root.File gives, links resolved.
func TestRootPath(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "private"), 0o755)
	os.Symlink("private", filepath.Join(dir, "sub"))
	r, err := NewRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Path("notes/../sub/x.txt")
	if err != nil {
		t.Fatal(err)
	}
	if p.Rel != "sub/x.txt" || p.OS != filepath.Join(r.Dir(), "sub", "x.txt") {
		t.Errorf("Path = %q, %q", p.Rel, p.OS)
	}
	pat, err := p.Pattern(Write)
	if err != nil || pat.String() != "write:private/x.txt" {
		t.Errorf("Pattern = %v, %v; want write:private/x.txt", pat, err)
	}
	if f, err := r.File(Write, "notes/../sub/x.txt"); err != nil || f != pat {
		t.Errorf("File = %v, %v; want the same pattern as Path", f, err)
	}
	if _, err := r.Path("../x"); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("outside: %v", err)
	}
	if _, err := p.Pattern(Verb("net")); err == nil {
		t.Error("a non-file verb gave a pattern")
	}
	if _, err := (Path{Rel: "x"}).Pattern(Read); err == nil {
		t.Error("a zero Path gave a pattern")
	}
}
