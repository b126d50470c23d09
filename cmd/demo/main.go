package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

func main() {
	opts, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		os.Exit(2)
	}
	opts.color = useColor(os.Stdout)
	os.Exit(run(os.Stdout, opts))
}

// usage heads the -h output, before the flags.
const usage = `usage: go run ./cmd/demo [-all]   (make demo)

Builds cmd/everything and drives a scripted session against it over
stdio pipes, printing every line as sent. By default: the legacy session
(initialize, tools/list, a call and a validation isError, a log message,
progress, a cancellation, one error of each class), then the modern
server/discover, a read carrying _meta, a task polled to completion and
a subscriptions/listen acknowledgement.

`

// parseFlags reads the command line (args without the program name); on
// an error, or -h, it prints to stderr what went wrong and the usage.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	var opts options
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&opts.all, "all", false, "also show the elicitation of both eras, a resource read, a prompt and a completion,\nand Streamable HTTP (a modern call with SSE progress, a legacy session, SIGTERM)")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return opts, err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return opts, errors.New("unexpected arguments")
	}
	return opts, nil
}

// run builds the server, runs the session opts selects, printing to w, and
// returns the exit status: 0 when every check held.
func run(w io.Writer, opts options) int {
	p := newPrinter(w, opts.color)
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

	opts.sources = filepath.Join(root, "cmd", "everything")
	bin, err := buildServer(root, dir)
	if err != nil {
		p.fail("building cmd/everything: %v", err)
		return 1
	}
	if err := runSession(bin, w, opts); err != nil {
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
