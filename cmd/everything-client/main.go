// Command everything-client is mcpwire's conformance client: the program
// the official MCP conformance suites (@modelcontextprotocol/conformance,
// `conformance client --command ...`) start once per client scenario, as
//
//	everything-client SERVER-URL
//
// with the scenario's name in MCP_CONFORMANCE_SCENARIO and its context, a
// JSON object, in MCP_CONFORMANCE_CONTEXT. It speaks Streamable HTTP to the
// scenario's server through package client (client.HTTP, with its
// default Admit and Consume gates), does what the
// scenario asks of a client, and exits 0, or 1 with the reason on stderr.
// The suite judges what it saw on the wire; the exit status is advisory.
//
// Every scenario connects the way hosts do (Transports, Backward
// Compatibility): server/discover first, then initialize when the server
// is of the legacy era. conformance/run-client.sh runs the suites against
// it; `everything-client -list` prints the scenarios it knows.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"time"
)

// timeout bounds one scenario; the suites' own default is 30 s.
const timeout = 25 * time.Second

// discoverTimeout bounds the era's probe: the suites' servers all answer
// it, but slowly when every scenario runs at once.
const discoverTimeout = 10 * time.Second

func main() {
	if len(os.Args) == 2 && os.Args[1] == "-list" {
		for _, name := range scenarioNames() {
			fmt.Println(name)
		}
		return
	}
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: everything-client SERVER-URL (scenario in MCP_CONFORMANCE_SCENARIO), or everything-client -list")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Getenv("MCP_CONFORMANCE_SCENARIO"), os.Getenv("MCP_CONFORMANCE_CONTEXT")); err != nil {
		fmt.Fprintln(os.Stderr, "everything-client:", err)
		os.Exit(1)
	}
}

// run runs the scenario name against the server at url with the context
// rawCtx (empty, or a JSON object).
func run(url, name, rawCtx string) error {
	sc, ok := scenarios[name]
	if !ok {
		return fmt.Errorf("unknown scenario %q (MCP_CONFORMANCE_SCENARIO); known: %v", name, scenarioNames())
	}
	var sctx scenarioContext
	if rawCtx != "" {
		if err := json.Unmarshal([]byte(rawCtx), &sctx); err != nil {
			return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return sc(ctx, url, sctx)
}

// scenarioNames lists the scenarios, sorted.
func scenarioNames() []string {
	names := make([]string, 0, len(scenarios))
	for name := range scenarios {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
