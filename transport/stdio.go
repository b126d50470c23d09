package transport

import (
	"io"
	"os"
	"sync"
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
//
// GuardStdout takes the guard earlier; once taken, Stdio always writes to
// the protocol descriptor it saved, NoGuard or not.
func Stdio(opts StdioOptions) (*Stream, error) {
	var out io.Writer = os.Stdout
	f, err := protocolOut(!opts.NoGuard)
	if err != nil {
		return nil, err
	}
	if f != nil {
		out = f
	}
	return NewStream(os.Stdin, out, opts.Options), nil
}

// GuardStdout applies the stdout guard of Stdio now, so that nothing the
// program prints before it serves (an init function, a library's banner,
// a fmt.Println at the top of main) reaches the client as a line of
// protocol: a host reading a stray line before the first response may
// drop the connection. It is meant for the first line of main; a later
// call, and Stdio, reuse the descriptor it saved. It does nothing where
// the platform cannot duplicate descriptors.
func GuardStdout() error {
	_, err := protocolOut(true)
	return err
}

// guard is the protocol descriptor guardStdout saved, once taken.
var guard struct {
	sync.Mutex
	taken bool
	out   *os.File
}

// protocolOut returns the saved protocol descriptor, taking the guard
// first when take is set and it was not taken yet; nil when there is none.
func protocolOut(take bool) (*os.File, error) {
	guard.Lock()
	defer guard.Unlock()
	if !guard.taken && take {
		f, err := guardStdout()
		if err != nil {
			return nil, err
		}
		guard.taken, guard.out = true, f
	}
	return guard.out, nil
}
