//go:build !linux

package probe

import (
	"errors"
	"os"
)

// openFile opens rel through an os.Root: links that stay inside the root
// are followed.
func (r Root) openFile(rel string, flag int, perm os.FileMode) (*os.File, error) {
	root, err := os.OpenRoot(r.dir)
	if err != nil {
		return nil, errors.New("probe: the root directory cannot be opened")
	}
	defer root.Close()
	return root.OpenFile(rel, flag, perm)
}

// mkdirAll creates rel through an os.Root.
func (r Root) mkdirAll(rel string, perm os.FileMode) error {
	root, err := os.OpenRoot(r.dir)
	if err != nil {
		return errors.New("probe: the root directory cannot be opened")
	}
	defer root.Close()
	return root.MkdirAll(rel, perm)
}
