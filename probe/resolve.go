package probe

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// maxLinks is the most symbolic links File follows in one path, as Linux
// does (MAXSYMLINKS).
const maxLinks = 40

// resolve follows the symbolic links of rel (cleaned, relative to the root)
// that exist, and returns the real path they lead to, relative to the root.
// p is the path as given, for errors. From the first component that does
// not exist on, the rest is kept lexically.
func (r Root) resolve(rel, p string) (string, error) {
	var (
		done  []string // the real path so far: directories, no link among them
		todo  = split(rel)
		links int
	)
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..": // only from a link's target: the real parent of done
			if len(done) == 0 {
				return "", &outsideError{path: p}
			}
			done = done[:len(done)-1]
			continue
		}
		name := filepath.Join(r.dir, filepath.Join(done...), c)
		fi, err := os.Lstat(name)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			return r.keep(append(append(done, c), todo...), p)
		case err != nil:
			return "", fmt.Errorf("cannot resolve path %s: %v", clip.Quote(p), bareError(err))
		case fi.Mode()&fs.ModeSymlink == 0:
			done = append(done, c)
			continue
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("path %s passes through more than %d symbolic links", clip.Quote(p), maxLinks)
		}
		target, err := os.Readlink(name)
		if err != nil {
			return "", fmt.Errorf("cannot resolve path %s: %v", clip.Quote(p), bareError(err))
		}
		if filepath.IsAbs(target) {
			in, ok := r.inside(target)
			if !ok {
				return "", &outsideError{path: p}
			}
			done, target = nil, in
		}
		todo = append(split(target), todo...)
	}
	if len(done) == 0 {
		return ".", nil
	}
	return filepath.Join(done...), nil
}

// keep joins the components of a path that leaves the existing tree,
// lexically, and checks that the result stays inside the root.
func (r Root) keep(parts []string, p string) (string, error) {
	rel := filepath.Clean(filepath.Join(parts...))
	if rel == "" || rel == "." {
		return ".", nil
	}
	if !filepath.IsLocal(rel) {
		return "", &outsideError{path: p}
	}
	return rel, nil
}

// inside returns target, an absolute link target, relative to the root,
// comparing it with the root as configured and as resolved (the root's own
// path may hold links).
func (r Root) inside(target string) (string, bool) {
	target = filepath.Clean(target)
	for _, dir := range []string{r.dir, realDir(r.dir)} {
		if dir == "" {
			continue
		}
		if rel, err := filepath.Rel(dir, target); err == nil && (rel == "." || filepath.IsLocal(rel)) {
			return rel, true
		}
	}
	return "", false
}

// realDir returns dir with its links resolved, or "" when that fails.
func realDir(dir string) string {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return ""
	}
	return d
}

// split returns the components of a relative path in the platform's form.
func split(rel string) []string {
	return strings.Split(filepath.ToSlash(rel), "/")
}

// bareError is err without the absolute path a *fs.PathError carries.
func bareError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
