package probe

import (
	"errors"
	"fmt"
	"os"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// ErrSymlink is matched (with errors.Is) by the error of [Root.OpenFile]
// and [Root.MkdirAll] for a path that meets a symbolic link.
var ErrSymlink = errors.New("the path holds a symbolic link")

// symlinkError names, relative to the root, the path asked for and the
// link met on the way.
type symlinkError struct{ path, link string }

func (e *symlinkError) Error() string {
	if e.link == e.path {
		return fmt.Sprintf("path %s is a symbolic link; links are not followed", clip.Quote(e.path))
	}
	return fmt.Sprintf("path %s passes through %s, a symbolic link; links are not followed", clip.Quote(e.path), clip.Quote(e.link))
}

func (e *symlinkError) Is(target error) bool { return target == ErrSymlink }

// OpenFile opens the file p under the root, as os.OpenFile does with flag
// and perm (perm applies when flag creates the file), following no
// symbolic link anywhere in p.
//
// Which path is checked: p goes through the same lexical check as
// [Root.File] (relative to the root, or absolute inside it; ".." may not
// climb out, even for a while; at most [MaxPathBytes]; no NUL), and is
// cleaned. Which path is opened: that cleaned path itself, never a link's
// target. On Linux the root directory is opened by its own path (the
// server's configuration, which may hold links); from there each directory
// of the cleaned path is opened relative to the one before it with
// O_DIRECTORY|O_NOFOLLOW, and the file relative to its directory with
// flag|O_NOFOLLOW|O_CLOEXEC. So every component, at the moment it was
// opened, was an entry of the directory opened before it that is not a
// symbolic link. A path that meets a link is an error matching
// [ErrSymlink] that names the link relative to the root, and nothing is
// created or truncated. Other errors are *os.PathError, with the path
// relative to the root and clipped.
//
// What a concurrent change can do: swapping any component for a symbolic
// link, before or during the walk, makes OpenFile fail; it never makes it
// open the link's target, inside the root or outside. What it cannot
// prevent: a real directory or file renamed into place (not a link) is
// opened, since it is an entry of that name; a directory moved elsewhere,
// even out of the root, after it was opened keeps being used for the rest
// of the walk; and a hard link shares its file with its other names.
// OpenFile checks names, not identities.
//
// On other platforms OpenFile opens through an [os.Root] instead, a weaker
// guarantee: it refuses links that lead out of the root but follows links
// that stay inside it, so the file opened can differ from the path
// checked.
func (r Root) OpenFile(p string, flag int, perm os.FileMode) (*os.File, error) {
	rel, err := r.clean(p)
	if err != nil {
		return nil, err
	}
	return r.openFile(rel, flag, perm)
}

// MkdirAll creates the directory p under the root and any missing parents,
// with perm (before the umask), following no symbolic link: p is checked
// and walked as by [Root.OpenFile], each missing directory created
// relative to its parent and then opened with O_NOFOLLOW, so that a link
// met on the way, or swapped in for a directory just created, is an error
// matching [ErrSymlink] and nothing is created beyond it. An existing
// directory is not an error. Other platforms use [os.Root.MkdirAll], with
// the weaker guarantee described at OpenFile.
func (r Root) MkdirAll(p string, perm os.FileMode) error {
	rel, err := r.clean(p)
	if err != nil {
		return err
	}
	return r.mkdirAll(rel, perm)
}
