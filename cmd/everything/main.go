// Command everything is mcpwire's contract server: an MCP stdio server
// exposing the tools that the golden transcripts, the interop clients, the
// load driver and the conformance contract exercise.
//
// Usage:
//
//	everything [-page-size 10] [-max-message-bytes N] [-grace 1s] [-sandbox DIR] [-fixtures] [-cpuprofile FILE]
//
// -fixtures also lists the fault fixtures that the tests and the demo
// call: panic (its handler panics) and broken_contract (it breaks its own
// output schema). They are off by default, since a host shows every listed
// tool to its model.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"runtime/pprof"
	"time"

	"github.com/mcpwire/mcpwire"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

func main() {
	pageSize := flag.Int("page-size", 10, "tools per tools/list page")
	maxMsg := flag.Int("max-message-bytes", transport.DefaultMaxMessageBytes, "largest incoming message, in bytes")
	grace := flag.Duration("grace", time.Second, "how long in-flight calls may finish after stdin closes")
	sandbox := flag.String("sandbox", "", "directory for write_file and read_file (default $"+sandboxEnv+", else a new temporary directory)")
	fixtures := flag.Bool("fixtures", false, "also list the fault fixtures panic and broken_contract (for tests)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to this file (for benchmarking)")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	root, cleanup, err := sandboxRoot(*sandbox)
	if err != nil {
		fmt.Fprintln(os.Stderr, "everything:", err)
		os.Exit(1)
	}
	srv := newServer(&mcp.Options{PageSize: *pageSize, ShutdownGrace: *grace, Logger: logger}, root, *fixtures)
	opts := &mcpwire.StdioOptions{Transport: transport.Options{MaxMessageBytes: *maxMsg}}
	err = mcpwire.RunStdio(context.Background(), srv, opts)
	cleanup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "everything:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// newServer builds the contract server with every tool registered (the
// fault fixtures too when fixtures is set); write_file and read_file work
// under sandboxDir.
func newServer(opts *mcp.Options, sandboxDir string, fixtures bool) *mcp.Server {
	srv := mcp.NewServer(mcp.Implementation{
		Name:        "mcpwire-everything",
		Version:     "0.1.0",
		Title:       "mcpwire everything server",
		Description: "The contract server of the mcpwire runtime.",
	}, opts)
	for _, t := range tools(fixtures) {
		srv.MustAddTool(t)
	}
	for _, t := range sandboxTools(sandboxDir) {
		srv.MustAddTool(t)
	}
	for _, t := range lifecycleTools(srv) {
		srv.MustAddTool(t)
	}
	return srv
}
