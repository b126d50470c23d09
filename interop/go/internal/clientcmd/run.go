package clientcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mcpwire/mcpwire/interop/go/internal/harness"
	"github.com/mcpwire/mcpwire/interop/go/internal/scenario"
)

// Client is one Go client SDK taking part in the interop run.
type Client struct {
	// Label names the SDK and its version in the report, such as
	// "go-sdk v1.8.0".
	Label string
	// Connect returns the SDK's adapter. With legacy set it must make the
	// SDK skip the modern handshake and send initialize; otherwise it
	// connects the SDK's own default way.
	Connect func(legacy bool) scenario.Connect
}

// ServerArgs are the flags every run gives the server: two entries a page,
// so that every list takes several pages; no change of
// test://watched-resource but the ones the scenario triggers; and no caller,
// whatever $MCPWIRE_CALLER says, so that completion sees a caller that is
// no operator.
var ServerArgs = []string{"-page-size", "2", "-watch-interval", "0", "-caller="}

// runTimeout bounds a whole scenario run.
const runTimeout = 90 * time.Second

// Main runs the client with the process's arguments and exits with the
// status [Run] returns.
func Main(c Client) {
	os.Exit(Run(c, os.Args, os.Stdout, os.Stderr))
}

// Run parses args (args[0] is the program name), runs the interop scenario
// with the client against the server and prints the report, ending with
// "RESULT PASS" or "RESULT FAIL", to stdout. Usage goes to stderr.
//
// The flags are -server (default $INTEROP_SERVER), -mode default|legacy,
// -transport stdio|http and -strict (default from $INTEROP_STRICT); $INTEROP_WIRE_FILE, when set,
// receives the wire transcript. Run returns 0 when every check passed, 1
// when any failed and 2 on a usage error.
func Run(c Client, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	server := fs.String("server", os.Getenv("INTEROP_SERVER"), "path of the built cmd/everything (default $INTEROP_SERVER)")
	mode := fs.String("mode", "default", "default (the SDK's discover-first connect) or legacy (initialize only)")
	transport := fs.String("transport", "stdio", "stdio, or http (the server runs with -http 127.0.0.1:0 and the SDK's Streamable HTTP client transport connects to it)")
	strict := fs.Bool("strict", harness.StrictFromEnv(), "report SKIP as FAIL (default $INTEROP_STRICT)")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *server == "" || (*mode != "default" && *mode != "legacy") || (*transport != "stdio" && *transport != "http") {
		fs.Usage()
		return 2
	}
	r := harness.NewReport(stdout, *strict)
	r.Info("client %s, transport %s, mode %s", c.Label, *transport, *mode)
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	scenario.Run(ctx, scenario.Config{
		Server:     *server,
		ServerArgs: ServerArgs,
		Connect:    c.Connect(*mode == "legacy"),
		HTTP:       *transport == "http",
		WantModern: *mode == "default",
		WireFile:   os.Getenv("INTEROP_WIRE_FILE"),
	}, r)
	if r.Failed() {
		fmt.Fprintln(stdout, "RESULT FAIL")
		return 1
	}
	fmt.Fprintln(stdout, "RESULT PASS")
	return 0
}
