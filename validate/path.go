package validate

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// PathInside checks that p names a location inside the directory root and
// returns that location relative to root, cleaned (for example "a/b.txt",
// or "." for root itself).
//
// A relative p is taken relative to root; an absolute p is accepted only
// when it lies inside root. Any relative path that climbs out of root with
// ".." is refused, even when it would climb back in later (for root
// "/srv/data", "a/../../data/x").
// root should be absolute; a relative root is compared lexically, so an
// absolute p is then always refused.
//
// The check is lexical: PathInside never touches the file system, so it
// does not see symbolic links. A link inside root that points outside it
// passes. To open or create the file safely, pass the returned relative
// path to an [os.Root] opened on root, which refuses to follow links out of
// the root at the moment of access.
func PathInside(root, p string) (string, error) {
	if root == "" {
		return "", errors.New("root directory is empty")
	}
	if p == "" {
		return "", errors.New(`path is empty; give a path inside the root directory, such as "notes/todo.txt"`)
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("path %s contains a NUL byte", clip.Quote(p))
	}
	root = filepath.Clean(root)
	target := p
	if !filepath.IsAbs(p) {
		if escapes(p) {
			return "", fmt.Errorf("path %s climbs out of the root directory with \"..\"; give a path inside %q", clip.Quote(p), root)
		}
		target = filepath.Join(root, p)
	}
	rel, err := filepath.Rel(root, filepath.Clean(target))
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return "", fmt.Errorf("path %s is outside the root directory %q; give a path inside it, relative or absolute", clip.Quote(p), root)
	}
	return rel, nil
}

// escapes reports whether walking the relative path p element by element
// ever rises above its starting directory.
func escapes(p string) bool {
	depth := 0
	for elem := range strings.SplitSeq(filepath.ToSlash(p), "/") {
		switch elem {
		case "", ".":
		case "..":
			depth--
			if depth < 0 {
				return true
			}
		default:
			depth++
		}
	}
	return false
}
