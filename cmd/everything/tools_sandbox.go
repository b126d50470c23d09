package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"syscall"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/probe"
	"github.com/mcpwire/mcpwire/tool"
)

// sandboxEnv names the environment variable that sets the sandbox root
// when the -sandbox flag is not given.
const sandboxEnv = "MCPWIRE_SANDBOX"

// maxReadBytes is the largest file read_file returns.
const maxReadBytes = 1 << 20

// sandboxRoot returns the directory the sandbox tools work in: dir (the
// -sandbox flag) when not empty, else $MCPWIRE_SANDBOX when set, else a new
// temporary directory. The directory is made absolute and must exist.
// cleanup removes the temporary directory, and does nothing for a directory
// the user named.
func sandboxRoot(dir string) (root string, cleanup func(), err error) {
	if dir == "" {
		dir = os.Getenv(sandboxEnv)
	}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "mcpwire-sandbox-")
		if err != nil {
			return "", nil, fmt.Errorf("creating the sandbox directory: %w", err)
		}
		return tmp, func() { os.RemoveAll(tmp) }, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, fmt.Errorf("sandbox directory %q: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", nil, fmt.Errorf("sandbox directory %q does not exist or is not a directory", dir)
	}
	return abs, func() {}, nil
}

// sandbox is the directory the file tools work in.
type sandbox struct {
	root probe.Root
}

// sandboxTools returns the tools that work on files under root: write_file,
// which supports permission probing, and read_file, which is read-only and
// does not.
func sandboxTools(root string) []tool.Tool {
	pr, err := probe.NewRoot(root)
	if err != nil {
		panic(err)
	}
	sb := &sandbox{root: pr}
	return []tool.Tool{sb.writeFileTool(), sb.readFileTool()}
}

// path checks p once, through probe.Root, for both the handler and the
// pattern function. Its errors never name the root: where the server keeps
// its files is not the model's business, and patterns are relative anyway.
// They quote p clipped (internal/clip), so that a huge path gives a short
// error.
func (sb *sandbox) path(p string) (probe.Path, error) {
	pth, err := sb.root.Path(p)
	switch {
	case errors.Is(err, probe.ErrOutsideRoot):
		return probe.Path{}, fmt.Errorf("path %s is outside the sandbox; give a path inside it, such as \"notes/todo.txt\"", clip.Quote(p))
	case err != nil:
		return probe.Path{}, err
	case pth.Rel == ".":
		return probe.Path{}, fmt.Errorf("path %s names the sandbox root itself; give a file path, such as \"notes/todo.txt\"", clip.Quote(p))
	}
	return pth, nil
}

type writeFileArgs struct {
	Path    string `json:"path" description:"File path relative to the sandbox root, such as notes/todo.txt. Missing directories are created." jsonschema:"minLength=1"`
	Content string `json:"content" description:"The file's new content, as text. An existing file is replaced."`
}

// writeFileTool writes a file under the sandbox. A probe answers
// write:<path relative to the root>, with nothing in forge.always, and
// writes nothing. The pattern names the real file: links inside the
// sandbox are resolved (probe.Root.File), while the real call follows no
// link at all, so a path through a link is approved as its target and then
// refused.
func (sb *sandbox) writeFileTool() tool.Tool {
	return probe.New("write_file",
		"Writes text to a file under the server's sandbox directory, replacing it if it exists. Supports permission probing: with _meta \"forge.permission_patterns\": true it only answers the pattern write:<path>.",
		func(_ context.Context, in writeFileArgs) (*tool.Result, error) {
			pth, err := sb.path(in.Path)
			if err != nil {
				return nil, err
			}
			rel := pth.Rel
			if err := sb.write(rel, []byte(in.Content)); err != nil {
				return nil, err
			}
			return tool.TextResult(fmt.Sprintf("wrote %d bytes to %s", len(in.Content), clip.String(rel))), nil
		},
		func(_ context.Context, in writeFileArgs) (probe.Patterns, error) {
			pth, err := sb.path(in.Path)
			if err != nil {
				return probe.Patterns{}, err
			}
			p, err := pth.Pattern(probe.Write)
			if err != nil {
				return probe.Patterns{}, err
			}
			return probe.Patterns{Args: []probe.Pattern{p}}, nil
		},
		tool.WithTitle("Write file"),
		tool.ReadOnly(false), tool.Destructive(true), tool.Idempotent(true), tool.OpenWorld(false))
}

// write writes data to rel through probe.Root, which follows no symbolic
// link in any component: a link met at call time, even one swapped in
// after a probe approved the path, fails the call and nothing is written.
// The file is opened non-blocking and must be a regular file, so that a
// FIFO in the sandbox cannot hang the call.
func (sb *sandbox) write(rel string, data []byte) error {
	if d := path.Dir(rel); d != "." {
		if err := sb.root.MkdirAll(d, 0o755); err != nil {
			return fileError("create the directories of", rel, err)
		}
	}
	f, err := sb.root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return fileError("write", rel, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("cannot write %s: it is not a regular file", clip.Quote(rel))
	}
	if _, err := f.Write(data); err != nil {
		return fileError("write", rel, err)
	}
	if err := f.Close(); err != nil {
		return fileError("write", rel, err)
	}
	return nil
}

type readFileArgs struct {
	Path string `json:"path" description:"File path relative to the sandbox root, such as notes/todo.txt." jsonschema:"minLength=1"`
}

// readFileTool reads a text file under the sandbox. It has no side effects,
// so it does not support probing, and a probe sent to it is refused.
func (sb *sandbox) readFileTool() tool.Tool {
	return tool.New("read_file",
		"Returns the text of a file under the server's sandbox directory (UTF-8, at most 1 MiB).",
		func(_ context.Context, in readFileArgs) (*tool.Result, error) {
			pth, err := sb.path(in.Path)
			if err != nil {
				return nil, err
			}
			rel := pth.Rel
			data, err := sb.read(rel)
			if err != nil {
				return nil, err
			}
			if !utf8.Valid(data) {
				return nil, fmt.Errorf("%s is not UTF-8 text", clip.Quote(rel))
			}
			return tool.TextResult(string(data)), nil
		},
		tool.WithTitle("Read file"),
		tool.ReadOnly(true), tool.OpenWorld(false))
}

// read returns the content of the regular file rel, at most maxReadBytes,
// opened as write opens it: no symbolic link followed, no FIFO waited on.
func (sb *sandbox) read(rel string) ([]byte, error) {
	f, err := sb.root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fileError("read", rel, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, fileError("read", rel, err)
	case fi.IsDir():
		return nil, fmt.Errorf("%s is a directory, not a file", clip.Quote(rel))
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("cannot read %s: it is not a regular file", clip.Quote(rel))
	case fi.Size() > maxReadBytes:
		return nil, fmt.Errorf("%s is %d bytes long; read_file returns at most %d", clip.Quote(rel), fi.Size(), maxReadBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxReadBytes+1))
	switch {
	case err != nil:
		return nil, fileError("read", rel, err)
	case len(data) > maxReadBytes:
		return nil, fmt.Errorf("%s is more than %d bytes long; read_file returns at most %d", clip.Quote(rel), maxReadBytes, maxReadBytes)
	}
	return data, nil
}

// fileError describes a failure to act on rel without the absolute path
// that an *os.PathError may carry. A probe.Root error (a symbolic link, a
// path too long) already names the path, clipped.
func fileError(action, rel string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("cannot %s %s: %v", action, clip.Quote(rel), pe.Err)
	}
	return fmt.Errorf("cannot %s %s: %v", action, clip.Quote(rel), err)
}
