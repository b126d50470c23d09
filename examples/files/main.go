package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path"
	"slices"
	"strings"
	"syscall"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/probe"
	"github.com/mcpwire/mcpwire/tool"
)

// maxReadBytes is the largest file read_file returns, and the largest
// file search looks into; maxMatches bounds what search returns.
const (
	maxReadBytes = 1 << 20
	maxMatches   = 100
)

// The tools' arguments and results; the schemas are inferred from them.
type (
	pathArgs struct {
		Path string `json:"path" description:"A path relative to the root directory, such as notes/todo.txt (\".\" for the root itself)."`
	}
	searchArgs struct {
		Path  string `json:"path" description:"The directory to search under, relative to the root (\".\" for all of it)."`
		Query string `json:"query" description:"The text to find, matched case-sensitively." jsonschema:"minLength=1"`
	}
	entry struct {
		Name string `json:"name"`
		Dir  bool   `json:"dir"`
		Size int64  `json:"size"`
	}
	listing struct {
		Entries []entry `json:"entries"`
	}
	match struct {
		Path string `json:"path"`
		Line int    `json:"line"`
		Text string `json:"text"`
	}
	matches struct {
		Matches   []match `json:"matches"`
		Truncated bool    `json:"truncated"`
	}
)

// files is the root directory the tools work under.
type files struct{ root probe.Root }

func main() {
	dir := flag.String("root", ".", "the directory the tools may read")
	flag.Parse()
	srv, err := newServer(*dir)
	if err != nil {
		log.Fatal(err)
	}
	if err := mcp.RunStdio(context.Background(), srv, nil); err != nil {
		log.Fatal(err) // log writes to stderr; stdout belongs to the protocol
	}
}

// newServer builds the server for the root directory dir.
func newServer(dir string) (*mcp.Server, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("root %q is not a directory", dir)
	}
	root, err := probe.NewRoot(dir)
	if err != nil {
		return nil, err
	}
	fs := files{root}
	readOnly := []tool.Option{tool.ReadOnly(true), tool.Idempotent(true), tool.OpenWorld(false)}
	srv := mcp.NewServer(mcp.Implementation{Name: "files", Version: "0.1.0"}, nil)
	srv.MustAddTool(probe.New("list_dir", "Lists a directory under the root: names, whether each is a directory, sizes.",
		fs.list, readPatterns[pathArgs](fs, func(in pathArgs) string { return in.Path }), readOnly...))
	srv.MustAddTool(probe.New("read_file", "Returns a text file under the root (at most 1 MiB).",
		fs.read, readPatterns[pathArgs](fs, func(in pathArgs) string { return in.Path }), readOnly...))
	srv.MustAddTool(probe.New("search", "Finds the lines holding a text in the files under a directory of the root.",
		fs.search, readPatterns[searchArgs](fs, func(in searchArgs) string { return in.Path }), readOnly...))
	return srv, nil
}

// readPatterns answers a probe: the call reads the path its arguments name.
func readPatterns[In any](fs files, pathOf func(In) string) func(context.Context, In) (probe.Patterns, error) {
	return func(_ context.Context, in In) (probe.Patterns, error) {
		p, err := fs.root.File(probe.Read, pathOf(in))
		if err != nil {
			return probe.Patterns{}, refusal(pathOf(in), err)
		}
		return probe.Patterns{Args: []probe.Pattern{p}}, nil
	}
}

// open opens p under the root, following no symbolic link, non-blocking
// so that a FIFO cannot hang the call.
func (fs files) open(p string) (*os.File, error) {
	pth, err := fs.root.Path(p)
	if err != nil {
		return nil, refusal(p, err)
	}
	f, err := fs.root.OpenFile(pth.Rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, refusal(p, err)
	}
	return f, nil
}

// refusal words a path error for the model, never naming the root.
func refusal(p string, err error) error {
	switch {
	case errors.Is(err, probe.ErrOutsideRoot):
		return fmt.Errorf("path %q is outside the root directory", p)
	case errors.Is(err, probe.ErrSymlink):
		return fmt.Errorf("path %q goes through a symbolic link, which this server does not follow", p)
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("path %q does not exist", p)
	}
	return fmt.Errorf("path %q: %w", p, err)
}

func (fs files) list(_ context.Context, in pathArgs) (listing, error) {
	f, err := fs.open(in.Path)
	if err != nil {
		return listing{}, err
	}
	defer f.Close()
	des, err := f.ReadDir(-1)
	if err != nil {
		return listing{}, fmt.Errorf("path %q is not a directory", in.Path)
	}
	var out listing
	for _, de := range sorted(des) {
		e := entry{Name: de.Name(), Dir: de.IsDir()}
		if de.Type().IsRegular() {
			e.Size = fs.size(path.Join(in.Path, de.Name()))
		}
		out.Entries = append(out.Entries, e)
	}
	return out, nil
}

// size returns the size of the file p, 0 when it cannot be read.
func (fs files) size(p string) int64 {
	f, err := fs.open(p)
	if err != nil {
		return 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	return fi.Size()
}

// sorted sorts directory entries by name, so that every answer is the same.
func sorted(des []os.DirEntry) []os.DirEntry {
	slices.SortFunc(des, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return des
}

func (fs files) read(_ context.Context, in pathArgs) (string, error) {
	f, err := fs.open(in.Path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("path %q is not a regular file", in.Path)
	} else if fi.Size() > maxReadBytes {
		return "", fmt.Errorf("file %q is %d bytes, more than the %d this tool returns", in.Path, fi.Size(), maxReadBytes)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxReadBytes))
	return string(b), err
}

func (fs files) search(ctx context.Context, in searchArgs) (matches, error) {
	pth, err := fs.root.Path(in.Path)
	if err != nil {
		return matches{}, refusal(in.Path, err)
	}
	var out matches
	return out, fs.walk(ctx, pth.Rel, in.Query, &out)
}

// walk searches the directory rel, skipping symbolic links, until ctx
// ends or maxMatches are found.
func (fs files) walk(ctx context.Context, rel, query string, out *matches) error {
	f, err := fs.open(rel)
	if err != nil {
		return err
	}
	des, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return fmt.Errorf("path %q is not a directory", rel)
	}
	for _, de := range sorted(des) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if out.Truncated {
			return nil
		}
		p := path.Join(rel, de.Name())
		switch {
		case de.IsDir():
			if err := fs.walk(ctx, p, query, out); err != nil {
				return err
			}
		case de.Type().IsRegular():
			fs.grep(p, query, out)
		}
	}
	return nil
}

// grep appends the lines of the file p that hold query; a file it cannot
// read is skipped.
func (fs files) grep(p, query string, out *matches) {
	f, err := fs.open(p)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxReadBytes))
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), query) {
			if len(out.Matches) == maxMatches {
				out.Truncated = true
				return
			}
			out.Matches = append(out.Matches, match{Path: p, Line: n, Text: sc.Text()})
		}
	}
}
