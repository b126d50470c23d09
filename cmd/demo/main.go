package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

func main() {
	os.Exit(run(os.Stdout, useColor(os.Stdout)))
}

// run builds the server, runs the session, printing to w (with colour when
// color is true), and returns the exit status: 0 when every check held.
func run(w io.Writer, color bool) int {
	p := newPrinter(w, color)
	root, err := moduleRoot()
	if err != nil {
		p.fail("%v", err)
		return 1
	}
	dir, err := os.MkdirTemp("", "mcpwire-demo-")
	if err != nil {
		p.fail("%v", err)
		return 1
	}
	defer os.RemoveAll(dir)

	bin, err := buildServer(root, dir)
	if err != nil {
		p.fail("building cmd/everything: %v", err)
		return 1
	}
	if err := runSession(bin, w, color); err != nil {
		return 1
	}
	return 0
}

// moduleRoot walks up from the working directory to the directory holding
// go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod in the working directory or above it: run the demo from inside the mcpwire module")
		}
		dir = parent
	}
}

// buildServer compiles ./cmd/everything of the module at root into dir and
// returns the binary's path.
func buildServer(root, dir string) (string, error) {
	bin := filepath.Join(dir, "everything")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	var out bytes.Buffer
	// cmd/everything is a module of its own (it links the Redis fan-out).
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join(root, "cmd", "everything")
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%v\n%s", err, bytes.TrimSpace(out.Bytes()))
	}
	return bin, nil
}

// useColor reports whether output to f may carry ANSI colour codes: only
// when f is a terminal, NO_COLOR is unset and TERM is not "dumb".
func useColor(f *os.File) bool {
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
