package probe

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/validate"
)

// ErrOutsideRoot is matched (with errors.Is) by the error [Root.File]
// returns for a path that leaves the root.
var ErrOutsideRoot = errors.New("path is outside the server's root directory")

// outsideError names the path without naming the root, which is the
// server's business and not the model's.
type outsideError struct{ path string }

func (e *outsideError) Error() string {
	return fmt.Sprintf("path %q is outside the server's root directory; give a path inside it, such as \"notes/todo.txt\"", e.path)
}

func (e *outsideError) Is(target error) bool { return target == ErrOutsideRoot }

// Root is the directory that file patterns are relative to: the directory
// a server's file tools work in. The zero Root is not usable; build one with
// [NewRoot].
type Root struct{ dir string }

// NewRoot returns a Root for dir, made absolute and cleaned. The directory
// need not exist: patterns are computed lexically.
func NewRoot(dir string) (Root, error) {
	if dir == "" {
		return Root{}, errors.New("probe: root directory is empty")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Root{}, fmt.Errorf("probe: root directory %q: %w", dir, err)
	}
	return Root{dir: abs}, nil
}

// Dir returns the root's absolute directory.
func (r Root) Dir() string { return r.dir }

// File returns the pattern for a read, write or delete of the file p: p is
// taken relative to the root (or, when absolute, must lie inside it),
// cleaned, and written relative to the root with forward slashes ("." is
// the root itself). A path that climbs out of the root, even only for a
// while ("a/../../ROOTNAME/x", which climbs out and back in), is an error matching [ErrOutsideRoot], and the
// error text names p but never the root.
//
// The check is lexical, like [validate.PathInside]; open files through an
// [os.Root] so that a symbolic link cannot lead out of the root at access
// time.
func (r Root) File(v Verb, p string) (Pattern, error) {
	if !v.IsFile() {
		return Pattern{}, fmt.Errorf("probe: verb %q does not take a file path; use read, write or delete", string(v))
	}
	if r.dir == "" {
		return Pattern{}, errors.New("probe: Root used without NewRoot")
	}
	if p == "" {
		return Pattern{}, errors.New(`path is empty; give a path inside the server's root directory, such as "notes/todo.txt"`)
	}
	if strings.ContainsRune(p, 0) {
		return Pattern{}, fmt.Errorf("path %q contains a NUL byte", p)
	}
	rel, err := validate.PathInside(r.dir, p)
	if err != nil {
		return Pattern{}, &outsideError{path: p}
	}
	pat := Pattern{Verb: v, Target: filepath.ToSlash(rel)}
	if err := pat.Check(); err != nil {
		return Pattern{}, err
	}
	return pat, nil
}

// checkPath reports whether t is a canonical file target: a cleaned,
// relative, slash-separated path that stays inside the root.
func checkPath(t string) error {
	switch {
	case t == "":
		return errors.New("file pattern has an empty path")
	case hasControl(t):
		return fmt.Errorf("path %q contains a control character", t)
	case strings.HasPrefix(t, "/") || filepath.IsAbs(filepath.FromSlash(t)):
		return fmt.Errorf("path %q is absolute; file patterns are relative to the server's root", t)
	case t == ".." || strings.HasPrefix(t, "../"):
		return &outsideError{path: t}
	case path.Clean(t) != t:
		return fmt.Errorf("path %q is not clean; write it as %q", t, path.Clean(t))
	}
	return nil
}

// hasControl reports whether s holds an ASCII control character.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}
