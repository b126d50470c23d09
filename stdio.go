package mcpwire

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpwire/mcpwire/mcp"
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

// RunStdio serves srv on standard input and output until stdin reaches EOF
// or the process receives SIGINT or SIGTERM, then lets in-flight calls
// finish within the server's shutdown grace period. It returns nil on a
// clean stop and the I/O error otherwise.
func RunStdio(ctx context.Context, srv *mcp.Server, opts *StdioOptions) error {
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
