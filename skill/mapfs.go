package skill

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// mapFS is a read-only file system of texts by path, for AddFiles.
type mapFS map[string]string

func (m mapFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if text, ok := m[name]; ok {
		return &mapFile{info: mapInfo{name: path.Base(name), size: int64(len(text))}, r: strings.NewReader(text)}, nil
	}
	var entries []fs.DirEntry
	seen := map[string]bool{}
	prefix := name + "/"
	if name == "." {
		prefix = ""
	}
	for p, text := range m {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		child, _, isDir := strings.Cut(rest, "/")
		if seen[child] {
			continue
		}
		seen[child] = true
		entries = append(entries, fs.FileInfoToDirEntry(mapInfo{name: child, size: int64(len(text)), dir: isDir}))
	}
	if entries == nil && name != "." {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return &mapFile{info: mapInfo{name: path.Base(name), dir: true}, entries: entries}, nil
}

// mapFile is an open file or directory of a mapFS.
type mapFile struct {
	info    mapInfo
	r       *strings.Reader
	entries []fs.DirEntry
}

func (f *mapFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *mapFile) Close() error               { return nil }
func (f *mapFile) Read(b []byte) (int, error) {
	if f.r == nil {
		return 0, &fs.PathError{Op: "read", Path: f.info.name, Err: fs.ErrInvalid}
	}
	return f.r.Read(b)
}

// ReadDir lists a directory's entries (all of them: n is ignored).
func (f *mapFile) ReadDir(int) ([]fs.DirEntry, error) { return f.entries, nil }

// mapInfo describes a mapFS file or directory.
type mapInfo struct {
	name string
	size int64
	dir  bool
}

func (i mapInfo) Name() string { return i.name }
func (i mapInfo) Size() int64  { return i.size }
func (i mapInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i mapInfo) ModTime() time.Time { return time.Time{} }
func (i mapInfo) IsDir() bool        { return i.dir }
func (i mapInfo) Sys() any           { return nil }
