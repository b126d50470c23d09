package probe

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// linkTree builds a root with a directory "private", a file "f.txt" and
// the given symbolic links (name -> target), skipping where links cannot
// be made.
func linkTree(t *testing.T, links map[string]string) (string, Root) {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"private", "a"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("f"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range links {
		if err := os.Symlink(filepath.FromSlash(target), filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	root, err := NewRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, root
}

func TestRootFileResolvesLinks(t *testing.T) {
	outside := t.TempDir()
	sibling := t.TempDir()
	dir, root := linkTree(t, map[string]string{
		"sub2":     "private",
		"chain":    "sub2",
		"self":     ".",
		"lnk.txt":  "private/t.txt",
		"a/up":     "../private",
		"dangling": "missing/new",
		"out":      outside,
		"climb":    "..",
		"sneak":    "missing/../../x",
		"loop1":    "loop2",
		"loop2":    "loop1",
		"a/deep":   "../../" + filepath.Base(sibling),
	})
	// An absolute link inside the root, which depends on where the root is.
	if err := os.Symlink(filepath.Join(dir, "private"), filepath.Join(dir, "abs")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, want, wantErr string
	}{
		{"sub2/x", "write:private/x", ""},
		{"sub2", "write:private", ""},
		{"abs/x", "write:private/x", ""},
		{filepath.Join(dir, "abs", "x"), "write:private/x", ""},
		{"chain/x", "write:private/x", ""},
		{"self/x", "write:x", ""},
		{"self", "write:.", ""},
		{"lnk.txt", "write:private/t.txt", ""},
		{"a/up/x", "write:private/x", ""},
		{"dangling/x", "write:missing/new/x", ""},
		{"new/dir/file.txt", "write:new/dir/file.txt", ""},
		{"f.txt/x", "write:f.txt/x", ""},
		{"sub2/../a/x", "write:a/x", ""},
		{"out/x", "", "outside the server's root"},
		{"out", "", "outside the server's root"},
		{"climb/x", "", "outside the server's root"},
		{"sneak", "", "outside the server's root"},
		{"a/deep/x", "", "outside the server's root"},
		{"loop1/x", "", "more than 40 symbolic links"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			p, err := root.File(Write, tt.path)
			if tt.wantErr == "" {
				if err != nil || p.String() != tt.want {
					t.Fatalf("File(write, %q) = %q, %v; want %q", tt.path, p, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("File(write, %q) = %q, %v; want an error containing %q", tt.path, p, err, tt.wantErr)
			}
			if strings.Contains(tt.wantErr, "outside") && !errors.Is(err, ErrOutsideRoot) {
				t.Errorf("error %v does not match ErrOutsideRoot", err)
			}
			if strings.Contains(err.Error(), dir) || strings.Contains(err.Error(), outside) {
				t.Errorf("error %q names a real directory", err)
			}
		})
	}
}

// Path errors quote the path clipped, whatever its length.
func TestRootFileErrorsClipped(t *testing.T) {
	root, _ := NewRoot(t.TempDir())
	long := strings.Repeat("a/", 5<<20)
	for _, p := range []string{"../" + long, long + "\x00", strings.Repeat("b", 10<<20), "a/../../" + long} {
		_, err := root.File(Write, p)
		if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "bytes)") {
			t.Errorf("File of a %d-byte path: %d-byte error %.120v", len(p), len(err.Error()), err)
		}
	}
	for _, target := range []string{"a\n" + long, "/" + long, long + "/./x"} {
		err := checkPath(target)
		if err == nil || len(err.Error()) > 300 {
			t.Errorf("checkPath of a %d-byte target: %d-byte error", len(target), len(err.Error()))
		}
	}
}
