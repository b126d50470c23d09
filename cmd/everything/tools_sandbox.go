package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/probe"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/validate"
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
	dir  string
	root probe.Root
}

// sandboxTools returns the tools that work on files under root: write_file,
// which supports permission probing, and read_file, which is read-only and
// does not.
func sandboxTools(root string) []*tool.Tool {
	pr, err := probe.NewRoot(root)
	if err != nil {
		panic(err)
	}
	sb := &sandbox{dir: pr.Dir(), root: pr}
	return []*tool.Tool{sb.writeFileTool(), sb.readFileTool()}
}

// rel returns p relative to the sandbox root, cleaned, with forward
// slashes. Its errors never name the root: where the server keeps its files
// is not the model's business, and patterns are relative anyway.
func (sb *sandbox) rel(p string) (string, error) {
	rel, err := validate.PathInside(sb.dir, p)
	switch {
	case p == "":
		return "", errors.New(`path is empty; give a path inside the sandbox, such as "notes/todo.txt"`)
	case err != nil:
		return "", fmt.Errorf("path %q is outside the sandbox; give a path inside it, such as \"notes/todo.txt\"", p)
	case rel == ".":
		return "", fmt.Errorf("path %q names the sandbox root itself; give a file path, such as \"notes/todo.txt\"", p)
	}
	return filepath.ToSlash(rel), nil
}

type writeFileArgs struct {
	Path    string `json:"path" description:"File path relative to the sandbox root, such as notes/todo.txt. Missing directories are created." jsonschema:"minLength=1"`
	Content string `json:"content" description:"The file's new content, as text. An existing file is replaced."`
}

// writeFileTool writes a file under the sandbox. A probe answers
// write:<path relative to the root>, with nothing in forge.always, and
// writes nothing.
func (sb *sandbox) writeFileTool() *tool.Tool {
	return probe.MustNew("write_file",
		"Writes text to a file under the server's sandbox directory, replacing it if it exists. Supports permission probing: with _meta \"forge.permission_patterns\": true it only answers the pattern write:<path>.",
		func(_ context.Context, in writeFileArgs) (*tool.Result, error) {
			rel, err := sb.rel(in.Path)
			if err != nil {
				return nil, err
			}
			if err := sb.write(rel, []byte(in.Content)); err != nil {
				return nil, err
			}
			return tool.TextResult(fmt.Sprintf("wrote %d bytes to %s", len(in.Content), rel)), nil
		},
		func(_ context.Context, in writeFileArgs) (probe.Patterns, error) {
			rel, err := sb.rel(in.Path)
			if err != nil {
				return probe.Patterns{}, err
			}
			p, err := sb.root.File(probe.Write, rel)
			if err != nil {
				return probe.Patterns{}, err
			}
			return probe.Patterns{Args: []probe.Pattern{p}}, nil
		},
		tool.WithTitle("Write file"),
		tool.WithAnnotations(&tool.Annotations{
			ReadOnlyHint: tool.Bool(false), DestructiveHint: tool.Bool(true),
			IdempotentHint: tool.Bool(true), OpenWorldHint: tool.Bool(false),
		}))
}

// write writes data to rel through an os.Root, so that a symbolic link in
// the sandbox cannot lead the write out of it.
func (sb *sandbox) write(rel string, data []byte) error {
	r, err := os.OpenRoot(sb.dir)
	if err != nil {
		return errors.New("the sandbox directory is not available")
	}
	defer r.Close()
	name := filepath.FromSlash(rel)
	if d := filepath.Dir(name); d != "." {
		if err := r.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("cannot create the directories of %s: %v", rel, rootError(err))
		}
	}
	if err := r.WriteFile(name, data, 0o644); err != nil {
		return fmt.Errorf("cannot write %s: %v", rel, rootError(err))
	}
	return nil
}

type readFileArgs struct {
	Path string `json:"path" description:"File path relative to the sandbox root, such as notes/todo.txt." jsonschema:"minLength=1"`
}

// readFileTool reads a text file under the sandbox. It has no side effects,
// so it does not support probing, and a probe sent to it is refused.
func (sb *sandbox) readFileTool() *tool.Tool {
	return tool.MustNew("read_file",
		"Returns the text of a file under the server's sandbox directory (UTF-8, at most 1 MiB).",
		func(_ context.Context, in readFileArgs) (*tool.Result, error) {
			rel, err := sb.rel(in.Path)
			if err != nil {
				return nil, err
			}
			r, err := os.OpenRoot(sb.dir)
			if err != nil {
				return nil, errors.New("the sandbox directory is not available")
			}
			defer r.Close()
			name := filepath.FromSlash(rel)
			fi, err := r.Stat(name)
			switch {
			case err != nil:
				return nil, fmt.Errorf("cannot read %s: %v", rel, rootError(err))
			case fi.IsDir():
				return nil, fmt.Errorf("%s is a directory, not a file", rel)
			case fi.Size() > maxReadBytes:
				return nil, fmt.Errorf("%s is %d bytes long; read_file returns at most %d", rel, fi.Size(), maxReadBytes)
			}
			data, err := r.ReadFile(name)
			if err != nil {
				return nil, fmt.Errorf("cannot read %s: %v", rel, rootError(err))
			}
			if !utf8.Valid(data) {
				return nil, fmt.Errorf("%s is not UTF-8 text", rel)
			}
			return tool.TextResult(string(data)), nil
		},
		tool.WithTitle("Read file"),
		tool.WithAnnotations(&tool.Annotations{ReadOnlyHint: tool.Bool(true), OpenWorldHint: tool.Bool(false)}))
}

// rootError describes a file-system error without the absolute path that
// *PathError carries.
func rootError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
