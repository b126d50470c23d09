package transport

import (
	"io"
	"os"
)

// StdioOptions configures Stdio.
type StdioOptions struct {
	Options
	// NoGuard switches off the stdout guard (see Stdio).
	NoGuard bool
}

// Stdio returns a Stream over the process's standard input and output.
//
// The stream owns file descriptor 1. Unless NoGuard is set, Stdio moves the
// protocol stream to a private duplicate of descriptor 1 and points
// descriptor 1 (and so os.Stdout, fmt.Println and any child process that
// inherits it) at standard error, so a stray print from user code lands on
// stderr instead of corrupting the protocol. Where the platform cannot
// duplicate descriptors the guard is skipped.
func Stdio(opts StdioOptions) (*Stream, error) {
	var out io.Writer = os.Stdout
	if !opts.NoGuard {
		f, err := guardStdout()
		if err != nil {
			return nil, err
		}
		if f != nil {
			out = f
		}
	}
	return NewStream(os.Stdin, out, opts.Options), nil
}
