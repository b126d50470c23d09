// Command mcpwireclient drives an MCP server we did not write with
// mcpwire's own client package, and proves that the client's default Admit
// and Consume gates refuse nothing the specification allows: it connects
// in the era asked for, lists the tools, resources, templates and prompts
// to the end, calls every tool that needs no argument (and echo-like tools
// with a short text), reads every listed resource, gets every prompt that
// needs no argument, and then fails when Client.Findings holds a refusal
// that is not a known server bug. Every warning is printed.
//
// It prints one PASS, FAIL or SKIP line per check and ends with
// "RESULT PASS" or "RESULT FAIL"; it exits 1 when any check failed.
//
// Usage:
//
//	mcpwireclient -name NAME [-era auto|legacy|modern] [-expect legacy|modern] -- COMMAND ARGS...
//	mcpwireclient -name NAME -transport http [-era ...] -- COMMAND ARGS...
//	mcpwireclient ... -args 'TOOL={"n":1}' -- ...   call TOOL with these arguments
//
// Over stdio the client starts COMMAND itself (client.Stdio). Over HTTP
// the program picks a free loopback port, replaces {port} in ARGS with it,
// also sets PORT=port in the server's environment (for servers that read
// their port from there), starts COMMAND, waits until the port accepts
// connections, and connects client.HTTP to http://127.0.0.1:port/mcp (or
// -path); it stops the server with SIGTERM at the end.
//
// -era auto detects the era as hosts do; with -expect, the era it settles
// must be that one.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/interop/go/internal/harness"
	"github.com/mcpwire/mcpwire/protocol"
)

// runTimeout bounds a whole run.
const runTimeout = 60 * time.Second

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// run parses args and drives the server; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("name", "", "the server's name in the report and in the known findings; required")
	transport := fs.String("transport", "stdio", "stdio or http")
	era := fs.String("era", "auto", "auto (detect as hosts do), legacy or modern")
	expect := fs.String("expect", "", "with -era auto: the era detection must settle (legacy or modern)")
	path := fs.String("path", "/mcp", "with -transport http: the endpoint's path")
	toolArgs := map[string]json.RawMessage{}
	fs.Func("args", "`TOOL=JSON`: call TOOL with these arguments (an object) instead of none; repeatable", func(v string) error {
		name, obj, ok := strings.Cut(v, "=")
		if !ok || !json.Valid([]byte(obj)) {
			return errors.New("want TOOL=JSON")
		}
		toolArgs[name] = json.RawMessage(obj)
		return nil
	})
	strict := fs.Bool("strict", harness.StrictFromEnv(), "report SKIP as FAIL (default $INTEROP_STRICT)")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	eras := map[string]protocol.Era{"auto": protocol.EraUnknown, "legacy": protocol.Legacy, "modern": protocol.Modern}
	pinned, okEra := eras[*era]
	want, okWant := eras[*expect]
	if *name == "" || fs.NArg() == 0 || !okEra || (*expect != "" && !okWant) || (*transport != "stdio" && *transport != "http") {
		fs.Usage()
		return 2
	}
	if pinned != protocol.EraUnknown {
		want = pinned
	}
	r := harness.NewReport(stdout, *strict)
	r.Info("mcpwire client, server %s, transport %s, era %s", *name, *transport, *era)
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	drive(ctx, r, target{
		name: *name, command: fs.Args(), http: *transport == "http", path: *path,
		era: pinned, want: want, log: stderr, args: toolArgs,
	})
	if r.Failed() {
		fmt.Fprintln(stdout, "RESULT FAIL")
		return 1
	}
	fmt.Fprintln(stdout, "RESULT PASS")
	return 0
}
