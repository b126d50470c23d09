package mcp

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpwire/mcpwire/transport"
)

// StdioOptions configures RunStdio. The zero value is ready to use.
type StdioOptions struct {
	// Transport configures framing limits (maximum message size and so on).
	Transport transport.Options
	// NoGuard leaves os.Stdout alone. By default descriptor 1 is taken
	// over for the protocol and stray writes to os.Stdout go to stderr.
	NoGuard bool
}

// GuardStdout points descriptor 1 (os.Stdout, fmt.Println, child
// processes) at standard error now, keeping the real standard output for
// the protocol, which RunStdio then serves on. RunStdio applies the guard
// itself, but only once it starts: call GuardStdout first thing in main
// when anything before it may print (an init function, a library's
// banner), since a stray line on stdout before the first response makes
// hosts drop the server. It returns an error only when the descriptors
// cannot be duplicated.
func GuardStdout() error { return transport.GuardStdout() }

// RunStdio serves srv on standard input and output until stdin reaches EOF
// or the process receives SIGINT or SIGTERM, then lets in-flight calls
// finish within the server's shutdown grace period. It returns nil on a
// clean stop and the I/O error otherwise.
func RunStdio(ctx context.Context, srv *Server, opts *StdioOptions) error {
	if opts == nil {
		opts = &StdioOptions{}
	}
	conn, err := transport.Stdio(transport.StdioOptions{Options: opts.Transport, NoGuard: opts.NoGuard})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	return srv.Serve(ctx, conn)
}
