package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs the subcommand args name and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitNotRun
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	case "check":
		return runCheck(ctx, args[1:], stdout, stderr)
	case "record":
		return runRecord(args[1:], os.Stdin, stdout, stderr)
	case "replay":
		return runReplay(args[1:], stdout, stderr)
	case "gateway":
		return runGateway(ctx, args[1:], stderr)
	}
	fmt.Fprintf(stderr, "mcpwire: unknown subcommand %q\n\n%s", args[0], usage)
	return exitNotRun
}

// usage is printed by help, and on stderr for a command line that is
// wrong.
const usage = `mcpwire reviews MCP servers the way a client would admit them.

Usage:

	mcpwire check [--json] [--call-all] [--era E] [--timeout D] [--total D] -- CMD [ARGS...]
	mcpwire check [--json] [--call-all] [--era E] [--timeout D] [--total D] [--header 'Name: value']... [--bearer-env VAR] [--no-sign-in] --url URL
	mcpwire record --out FILE [--note TEXT] -- CMD [ARGS...]
	mcpwire replay [--update] FILE -- CMD [ARGS...]
	mcpwire gateway --config FILE [--http ADDR]
	mcpwire help

check starts CMD as a stdio MCP server (any language), or with --url
reaches the Streamable HTTP endpoint at URL, detects its era
(server/discover, then initialize), lists its tools, resources, templates
and prompts twice, reviews every descriptor, calls every read-only tool
that needs no argument, and reviews each result.

	--json       write one JSON document instead of a table
	--call-all   call every tool that needs no argument, read-only or not
	--era E      auto (detect, the default), legacy (initialize) or modern (2026-07-28)
	--timeout D  bound on the handshake, each listing and each call (default 10s)
	--total D    bound on the whole review (default 5m)
	--url URL    review the Streamable HTTP endpoint at URL (http or https) instead of CMD
	--header H   with --url, send the header 'Name: value' with every request (repeatable)
	--bearer-env VAR
	             with --url, send Authorization: Bearer and the token in the environment
	             variable VAR (never printed; a 401 says the endpoint wants a token)
	--no-sign-in with --url and no token, do not sign in when the endpoint answers 401
	             (by default check signs in: your browser opens at the authorization
	             server, and the redirect comes back to a loopback port)

Exit status: 0 when everything is admitted, 1 when anything is rejected,
2 when the review could not run (the server failed to start or could not
be reached, timed out, or spoke no MCP) or the command line is wrong.

record runs CMD behind a transparent stdio proxy (a host launches
mcpwire record instead of the server) and writes the session to FILE as
a golden transcript; its exit status is the server's.

replay sends FILE's client lines to CMD and compares what it writes,
cursors, states, server request ids, RFC 3339 times and the header's
"# volatile: POINTER" values normalised; --update rewrites FILE. Exit
status: 0 on a match, 1 on a difference, 2 when the replay could not run.

gateway serves the upstreams FILE lists (YAML or JSON: upstreams, each a
name and a command, with env, or a url, with headers; ${VAR} taken from
the environment) as one MCP server, their tools and prompts named
<upstream>_<name>, on stdio, or with --http at http://ADDR/mcp. Exit
status: 0 when it stopped cleanly, 1 when serving failed, 2 when it could
not start (a bad file, an upstream that cannot be reached, a name two
upstreams give).
`
