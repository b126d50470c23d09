//go:build linux

package probe

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// dirFlags open a directory of a path: never a link, never inherited.
const dirFlags = syscall.O_RDONLY | syscall.O_DIRECTORY | syscall.O_NOFOLLOW | syscall.O_CLOEXEC

// openFile opens rel (cleaned, relative to the root) component by
// component, following no link.
func (r Root) openFile(rel string, flag int, perm os.FileMode) (*os.File, error) {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	dir, err := r.walk(rel, parts[:len(parts)-1], false, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(dir)
	fd, err := openat(dir, parts[len(parts)-1], flag|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, sysMode(perm))
	if err != nil {
		return nil, r.walkError("open", rel, parts, err)
	}
	return os.NewFile(uintptr(fd), filepath.ToSlash(rel)), nil
}

// mkdirAll creates the missing directories of rel, following no link.
func (r Root) mkdirAll(rel string, perm os.FileMode) error {
	var parts []string
	if rel != "." {
		parts = strings.Split(filepath.ToSlash(rel), "/")
	}
	dir, err := r.walk(rel, parts, true, sysMode(perm))
	if err != nil {
		return err
	}
	return syscall.Close(dir)
}

// walk opens the root, then each directory of parts relative to the one
// before, with O_NOFOLLOW; with create it makes a missing one first. It
// returns the descriptor of the last directory, for the caller to close.
func (r Root) walk(rel string, parts []string, create bool, mode uint32) (int, error) {
	dir, err := openRoot(r.dir)
	if err != nil {
		return -1, fmt.Errorf("probe: the root directory cannot be opened: %w", err)
	}
	for i, c := range parts {
		fd, err := openat(dir, c, dirFlags, 0)
		if err == syscall.ENOENT && create {
			if err = mkdirat(dir, c, mode); err == nil || err == syscall.EEXIST {
				fd, err = openat(dir, c, dirFlags, 0)
			}
		}
		syscall.Close(dir)
		if err != nil {
			op := "open"
			if create {
				op = "mkdir"
			}
			return -1, r.walkError(op, rel, parts[:i+1], err)
		}
		dir = fd
	}
	return dir, nil
}

// walkError describes the failure to open the last of upTo, the
// components of rel walked so far: a link (ELOOP from O_NOFOLLOW, or
// ENOTDIR for a link opened with O_DIRECTORY) is a *symlinkError naming it.
// The Lstat that tells a link from another non-directory only words the
// error; the refusal itself came from the no-follow open.
func (r Root) walkError(op, rel string, upTo []string, err error) error {
	link := strings.Join(upTo, "/")
	if err == syscall.ELOOP || err == syscall.ENOTDIR && isLink(filepath.Join(r.dir, filepath.FromSlash(link))) {
		return &symlinkError{path: filepath.ToSlash(rel), link: link}
	}
	return &fs.PathError{Op: op, Path: clip.String(filepath.ToSlash(rel)), Err: err}
}

// isLink reports whether name is a symbolic link.
func isLink(name string) bool {
	fi, err := os.Lstat(name)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// openRoot opens the root directory by its path, following links in it:
// it is the server's configuration, not a client's.
func openRoot(dir string) (int, error) {
	for {
		fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// openat is syscall.Openat, retried when a signal interrupts it.
func openat(dir int, name string, flag int, mode uint32) (int, error) {
	for {
		fd, err := syscall.Openat(dir, name, flag, mode)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// mkdirat is syscall.Mkdirat, retried when a signal interrupts it.
func mkdirat(dir int, name string, mode uint32) error {
	for {
		if err := syscall.Mkdirat(dir, name, mode); err != syscall.EINTR {
			return err
		}
	}
}

// sysMode converts a FileMode's permission and special bits for open(2)
// and mkdir(2).
func sysMode(m os.FileMode) uint32 {
	o := uint32(m.Perm())
	if m&os.ModeSetuid != 0 {
		o |= syscall.S_ISUID
	}
	if m&os.ModeSetgid != 0 {
		o |= syscall.S_ISGID
	}
	if m&os.ModeSticky != 0 {
		o |= syscall.S_ISVTX
	}
	return o
}
