package probe

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/validate"
)

// ErrOutsideRoot is matched (with errors.Is) by the error [Root.File]
// returns for a path that leaves the root.
var ErrOutsideRoot = errors.New("path is outside the server's root directory")

// MaxPathBytes is the longest path, in bytes, that [Root.File],
// [Root.OpenFile] and [Root.MkdirAll] accept: Linux's PATH_MAX.
const MaxPathBytes = 4096

// outsideError names the path without naming the root, which is the
// server's business and not the model's.
type outsideError struct{ path string }

func (e *outsideError) Error() string {
	return fmt.Sprintf("path %s is outside the server's root directory; give a path inside it, such as \"notes/todo.txt\"", clip.Quote(e.path))
}

func (e *outsideError) Is(target error) bool { return target == ErrOutsideRoot }

// Root is the directory that file patterns are relative to: the directory
// a server's file tools work in. The zero Root is not usable; build one with
// [NewRoot].
type Root struct{ dir string }

// NewRoot returns a Root for dir, made absolute and cleaned. The directory
// need not exist: the patterns of paths under a missing directory are
// computed lexically.
func NewRoot(dir string) (Root, error) {
	if dir == "" {
		return Root{}, errors.New("probe: root directory is empty")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Root{}, fmt.Errorf("probe: root directory %s: %w", clip.Quote(dir), err)
	}
	return Root{dir: abs}, nil
}

// Dir returns the root's absolute directory.
func (r Root) Dir() string { return r.dir }

// File returns the pattern for a read, write or delete of the file p: p is
// taken relative to the root (or, when absolute, must lie inside it),
// cleaned, and written relative to the root with forward slashes ("." is
// the root itself). A path that climbs out of the root, even only for a
// while ("a/../../ROOTNAME/x", which climbs out and back in), is an error
// matching [ErrOutsideRoot], and the error text names p (clipped, see
// internal/clip) but never the root. So is a path longer than
// [MaxPathBytes] or holding a NUL byte.
//
// The cleaned path is then resolved against the file system, component by
// component, so that the pattern names the file a call would reach: when
// "sub2" is a symbolic link to "private", "sub2/x" gives "write:private/x".
// A link whose target leaves the root is an error matching
// [ErrOutsideRoot]; components that do not exist (yet) are kept as written.
// ".." is applied before resolving, lexically: "a/../b" is "b" whatever a
// is.
//
// The pattern describes the file system at the moment of the probe. Open
// the files with [Root.OpenFile], which follows no link at all, so that a
// link swapped in after the probe makes the real call fail instead of
// reaching a file the host did not approve.
func (r Root) File(v Verb, p string) (Pattern, error) {
	pth, err := r.Path(p)
	if err != nil {
		return Pattern{}, err
	}
	return pth.Pattern(v)
}

// Path is a file path inside a [Root], checked once: a tool's handler and
// its pattern function both start from it, so that the path a probe
// approves and the path the call opens come from one check.
type Path struct {
	// Rel is the path relative to the root, cleaned, with forward slashes
	// ("." is the root itself): what [Root.OpenFile] and [Root.MkdirAll]
	// take, and the form patterns use.
	Rel string
	// OS is the same path on the file system (the root joined with Rel),
	// for code that must name it to the operating system; open files with
	// [Root.OpenFile] instead, which follows no link.
	OS string

	root  Root
	given string
}

// Path checks p as [Root.File] does (inside the root, not too long, no NUL
// byte) and returns it in both forms. Its errors are File's.
func (r Root) Path(p string) (Path, error) {
	rel, err := r.clean(p)
	if err != nil {
		return Path{}, err
	}
	return Path{Rel: filepath.ToSlash(rel), OS: filepath.Join(r.dir, rel), root: r, given: p}, nil
}

// Pattern returns the pattern of verb v (read, write or delete) on the
// path, with the links inside the root resolved as [Root.File] describes.
func (p Path) Pattern(v Verb) (Pattern, error) {
	if !v.IsFile() {
		return Pattern{}, fmt.Errorf("probe: verb %s does not take a file path; use read, write or delete", clip.Quote(string(v)))
	}
	if p.root.dir == "" {
		return Pattern{}, errors.New("probe: Path used without Root.Path")
	}
	rel, err := p.root.resolve(filepath.FromSlash(p.Rel), p.given)
	if err != nil {
		return Pattern{}, err
	}
	pat := Pattern{Verb: v, Target: filepath.ToSlash(rel)}
	if err := pat.Check(); err != nil {
		return Pattern{}, err
	}
	return pat, nil
}

// clean is the lexical check shared by File and OpenFile: it returns p
// relative to the root, cleaned, in the platform's form.
func (r Root) clean(p string) (string, error) {
	switch {
	case r.dir == "":
		return "", errors.New("probe: Root used without NewRoot")
	case p == "":
		return "", errors.New(`path is empty; give a path inside the server's root directory, such as "notes/todo.txt"`)
	case len(p) > MaxPathBytes:
		return "", fmt.Errorf("path %s is too long; give at most %d bytes", clip.Quote(p), MaxPathBytes)
	case strings.ContainsRune(p, 0):
		return "", fmt.Errorf("path %s contains a NUL byte", clip.Quote(p))
	}
	rel, err := validate.PathInside(r.dir, p)
	if err != nil {
		return "", &outsideError{path: p}
	}
	return rel, nil
}

// checkPath reports whether t is a canonical file target: a cleaned,
// relative, slash-separated path that stays inside the root.
func checkPath(t string) error {
	switch {
	case t == "":
		return errors.New("file pattern has an empty path")
	case hasControl(t):
		return fmt.Errorf("path %s contains a control character", clip.Quote(t))
	case strings.HasPrefix(t, "/") || filepath.IsAbs(filepath.FromSlash(t)):
		return fmt.Errorf("path %s is absolute; file patterns are relative to the server's root", clip.Quote(t))
	case t == ".." || strings.HasPrefix(t, "../"):
		return &outsideError{path: t}
	case path.Clean(t) != t:
		return fmt.Errorf("path %s is not clean; write it as %s", clip.Quote(t), clip.Quote(path.Clean(t)))
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
