package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPathInside(t *testing.T) {
	root := filepath.FromSlash("/srv/data")
	tests := []struct {
		p       string
		want    string // "" means an error is expected
		errPart string
	}{
		{p: "file.txt", want: "file.txt"},
		{p: "./x", want: "x"},
		{p: "a/b/../c", want: "a/c"},
		{p: "a//b/", want: "a/b"},
		{p: ".", want: "."},
		{p: "a/..", want: "."},
		{p: "/srv/data/reports/q1.csv", want: "reports/q1.csv"},
		{p: "/srv/data", want: "."},
		{p: "/srv/data/", want: "."},
		{p: "café/ünïcödé 文件.txt", want: "café/ünïcödé 文件.txt"},
		{p: "..foo/bar", want: "..foo/bar"},
		{p: "", errPart: "path is empty"},
		{p: "..", errPart: "climbs out"},
		{p: "../x", errPart: "climbs out"},
		{p: "a/../../b", errPart: "climbs out"},
		{p: "a/../../data/x", errPart: "climbs out"},
		{p: "/etc/passwd", errPart: "outside the root"},
		{p: "/srv/data2/x", errPart: "outside the root"},
		{p: "/srv", errPart: "outside the root"},
		{p: "/srv/data/../other", errPart: "outside the root"},
		{p: "a\x00b", errPart: "NUL"},
	}
	for _, tt := range tests {
		t.Run(tt.p, func(t *testing.T) {
			got, err := PathInside(root, filepath.FromSlash(tt.p))
			if tt.errPart != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errPart) {
					t.Fatalf("PathInside(%q) = %q, %v; want error containing %q", tt.p, got, err, tt.errPart)
				}
				return
			}
			if err != nil || got != filepath.FromSlash(tt.want) {
				t.Fatalf("PathInside(%q) = %q, %v; want %q", tt.p, got, err, tt.want)
			}
		})
	}
}

func TestPathInsideEmptyRoot(t *testing.T) {
	if _, err := PathInside("", "x"); err == nil {
		t.Fatal("empty root accepted")
	}
}

// TestPathInsideSymlinkIsLexical pins the documented limit: a link inside
// root that points outside passes PathInside, and os.Root is what refuses it.
func TestPathInsideSymlinkIsLexical(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	rel, err := PathInside(root, filepath.Join("link", "secret"))
	if err != nil {
		t.Fatalf("lexical check refused %v", err)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if f, err := r.Open(rel); err == nil {
		f.Close()
		t.Fatal("os.Root followed a link out of the root")
	}
}

// The path is quoted clipped in every error, so a 10 MiB path does not come
// back as a 10 MiB error.
func TestPathInsideErrorsClipped(t *testing.T) {
	long := strings.Repeat("a/", 5<<20)
	for _, p := range []string{"../" + long, "/elsewhere/" + long, long + "\x00"} {
		_, err := PathInside(filepath.FromSlash("/srv/data"), p)
		if err == nil || len(err.Error()) > 300 || !strings.Contains(err.Error(), "bytes)") {
			t.Errorf("PathInside of a %d-byte path: %d-byte error", len(p), len(err.Error()))
		}
	}
}
