package probe

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// needNoFollow skips tests of the Linux guarantee elsewhere.
func needNoFollow(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("OpenFile follows links inside the root on", runtime.GOOS)
	}
}

func TestOpenFile(t *testing.T) {
	dir, root := linkTree(t, map[string]string{"sub2": "private", "lnk.txt": "f.txt"})
	f, err := root.OpenFile("a/../f.txt", os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	if string(b) != "f" {
		t.Errorf("read %q", b)
	}
	if runtime.GOOS == "linux" && f.Name() != "f.txt" {
		t.Errorf("Name() = %q, want the path relative to the root", f.Name())
	}
	f, err = root.OpenFile("private/new.txt", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("n")
	f.Close()
	if b, err := os.ReadFile(filepath.Join(dir, "private", "new.txt")); err != nil || string(b) != "n" {
		t.Errorf("created file = %q, %v", b, err)
	}
	if _, err := root.OpenFile("missing/x", os.O_RDONLY, 0); !errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), dir) {
		t.Errorf("open of a missing file: %v", err)
	}
	if _, err := root.OpenFile("../x", os.O_RDONLY, 0); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("open of ../x: %v", err)
	}
	d, err := root.OpenFile(".", os.O_RDONLY, 0)
	if err != nil {
		t.Fatalf("open of the root: %v", err)
	}
	d.Close()
}

// A link anywhere in the path, inside or out of the root, final or not,
// dangling or not, is refused, and nothing is created or truncated.
func TestOpenFileRefusesLinks(t *testing.T) {
	needNoFollow(t)
	outside := t.TempDir()
	dir, root := linkTree(t, map[string]string{
		"sub2": "private", "lnk.txt": "f.txt", "out": outside, "dangling": "private/d.txt", "a/up": "../private",
	})
	tests := []struct{ path, link string }{
		{"sub2/x", "sub2"},
		{"lnk.txt", "lnk.txt"},
		{"out/x", "out"},
		{"dangling", "dangling"},
		{"a/up/x", "a/up"},
		{"a/up/deeper/x", "a/up"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			f, err := root.OpenFile(tt.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
			if err == nil {
				f.Close()
				t.Fatal("OpenFile followed a link")
			}
			want := `passes through "` + tt.link + `", a symbolic link`
			if tt.link == tt.path {
				want = `path "` + tt.path + `" is a symbolic link`
			}
			if !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), want) {
				t.Errorf("error %q; want ErrSymlink and %q", err, want)
			}
			if strings.Contains(err.Error(), dir) {
				t.Errorf("error %q names the root", err)
			}
			if err := root.MkdirAll(tt.path, 0o755); !errors.Is(err, ErrSymlink) {
				t.Errorf("MkdirAll(%q) = %v, want ErrSymlink", tt.path, err)
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "f.txt")); string(b) != "f" {
		t.Error("a link target was truncated")
	}
	for _, p := range []string{filepath.Join(dir, "private", "x"), filepath.Join(dir, "private", "d.txt"), filepath.Join(outside, "x"), filepath.Join(dir, "private", "deeper")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was created through a link", p)
		}
	}
}

func TestMkdirAll(t *testing.T) {
	dir, root := linkTree(t, nil)
	if err := root.MkdirAll("n/e/s/t", 0o755); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "n", "e", "s", "t")); err != nil || !fi.IsDir() {
		t.Fatalf("MkdirAll made %v, %v", fi, err)
	}
	for _, p := range []string{"n/e/s/t", "private", "."} {
		if err := root.MkdirAll(p, 0o755); err != nil {
			t.Errorf("MkdirAll(%q) of an existing directory = %v", p, err)
		}
	}
	if err := root.MkdirAll("f.txt/x", 0o755); err == nil || errors.Is(err, ErrSymlink) || strings.Contains(err.Error(), dir) {
		t.Errorf("MkdirAll under a file = %v", err)
	}
	if err := root.MkdirAll("../x", 0o755); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("MkdirAll(../x) = %v", err)
	}
}

// A long path is refused before any system call, its error clipped.
func TestOpenFileLongPath(t *testing.T) {
	_, root := linkTree(t, nil)
	long := strings.Repeat("a/", MaxPathBytes)
	if _, err := root.OpenFile(long, os.O_RDONLY, 0); err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "too long") {
		t.Errorf("OpenFile of a %d-byte path: %v", len(long), err)
	}
	if err := root.MkdirAll(long, 0o755); err == nil || len(err.Error()) > 200 {
		t.Errorf("MkdirAll of a %d-byte path: %v", len(long), err)
	}
}

// While "sub" is swapped back and forth between a real directory and a
// link to "private", OpenFile("sub/x") either fails or creates the file in
// the real directory: never in private.
func TestOpenFileConcurrentSwap(t *testing.T) {
	needNoFollow(t)
	dir, root := linkTree(t, map[string]string{"link": "private"})
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			for _, name := range []string{"real", "link"} {
				select {
				case <-stop:
					return
				default:
				}
				os.Rename(filepath.Join(dir, name), sub)
				os.Rename(sub, filepath.Join(dir, name))
			}
		}
	}()
	opened := 0
	for range 2000 {
		f, err := root.OpenFile("sub/x", os.O_WRONLY|os.O_CREATE, 0o644)
		if err == nil {
			opened++
			f.Close()
		}
	}
	close(stop)
	wg.Wait()
	if _, err := os.Lstat(filepath.Join(dir, "private", "x")); err == nil {
		t.Fatal("a write reached private/x through the swapped link")
	}
	t.Logf("%d of 2000 opens succeeded in the real directory", opened)
}
