// Command agent is an example of an agent loop built on package client: it
// connects to several MCP servers at once, lists the tools of all of them
// under namespaced names (server/tool), and then follows a scripted plan
// where a real agent would ask a model what to call next.
//
// Usage:
//
//	agent [flags] (--stdio "command args" | --http URL)...
//
// Each --stdio starts a server as a subprocess and speaks to it over its
// stdin and stdout (the command line is split on spaces; there is no
// quoting); each --http speaks Streamable HTTP to an MCP endpoint. Give as
// many as you like, in any order. Each server is named by the name in its
// serverInfo (a second server of the same name gets "-2", and so on); a
// tool is server/tool.
//
// Flags:
//
//	--plan FILE           the steps to follow (default: the built-in plan)
//	--allow-destructive   admit tools that may be destructive
//	--step-timeout D      bound on each step (default 30s)
//	--connect-timeout D   bound on connecting to each server (default 30s)
//
// A plan file holds one step a line, "server tool {json arguments}" (the
// arguments may be left out; blank lines and lines starting with # are
// skipped), or, when it starts with '[', a JSON array of steps
// {"server": ..., "tool": ..., "arguments": {...}}. Without --plan the
// built-in plan explores read-only: on each server it calls up to three
// admitted tools that need no arguments, then tries up to three tools the
// Admit gate refused, to show the refusals.
//
// What the agent shows of the client:
//
//   - the Admit gate with a policy: a tool that may be destructive is
//     refused unless --allow-destructive. The hints are the
//     specification's defaults (Tools, Tool annotations): destructiveHint
//     defaults to true and readOnlyHint to false, so a tool is admitted
//     only when it says readOnlyHint true or destructiveHint false. A
//     refused tool is left out of the list, and calling it is an error, a
//     *client.Finding, printed as a refusal; so is a result the Consume
//     gate refuses;
//   - elicitation answered by declining: the agent has no user to ask, so
//     a tool that asks for input gets "decline" and decides what that
//     means;
//   - results printed as their text content, with a line for each block
//     of another kind.
//
// For example, from the repository's root, with the contract server
// (cmd/everything, a module of its own, so built first) and the smallest
// server:
//
//	(cd cmd/everything && go build -o ../../bin/everything)
//	go run ./cmd/agent --stdio bin/everything --stdio "go run ./cmd/hello"
//
// and with a plan:
//
//	printf '%s\n' 'mcpwire-everything echo {"text":"hi"}' 'hello greet {"name":"Ada"}' > plan.txt
//	go run ./cmd/agent --plan plan.txt --allow-destructive --stdio bin/everything --stdio "go run ./cmd/hello"
//
// (hello's greet has no annotations, so by the defaults above it may be
// destructive.)
//
// The exit status is 0 when every step ran (refusals and tools that
// reported an error included), 1 when a step failed to get an answer, and
// 2 for a usage error or a server that could not be reached.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(exitCode(run(ctx, os.Args[1:], os.Stdout, os.Stderr)))
}

// exitCode maps what run returned to the command's exit status.
func exitCode(err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errStepsFailed):
		return 1
	default:
		return 2
	}
}

// run is the whole command: it parses args, reads the plan and drives the
// agent, writing what happens to out, and usage errors and the stdio
// servers' stderr to errOut.
func run(ctx context.Context, args []string, out, errOut io.Writer) error {
	cfg, err := parseArgs(args, errOut)
	if err != nil {
		return err
	}
	var steps []step
	if cfg.planPath != "" {
		if steps, err = loadPlan(cfg.planPath); err != nil {
			fmt.Fprintln(errOut, "agent:", err)
			return err
		}
	}
	err = drive(ctx, cfg, steps, out)
	if err != nil && !errors.Is(err, errStepsFailed) {
		fmt.Fprintln(errOut, "agent:", err)
	}
	return err
}

// drive is the agent loop: it connects to the servers of cfg, lists their
// tools and follows steps (nil: the built-in plan), writing what happens
// to out.
func drive(ctx context.Context, cfg *config, steps []step, out io.Writer) error {
	a, err := connectAll(ctx, cfg, out)
	if err != nil {
		return err
	}
	defer a.close()
	if err := a.listTools(ctx); err != nil {
		return err
	}
	if steps == nil {
		steps = a.defaultPlan()
	}
	return a.follow(ctx, steps)
}
