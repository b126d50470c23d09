// Command mcpgo drives the server under test with github.com/mark3labs/mcp-go
// over stdio, runs the interop scenario and prints one PASS, FAIL or SKIP line
// per check. It exits 1 when any check failed.
//
// If INTEROP_WIRE_FILE is set, the transcript of the run is written there.
//
// Usage:
//
//	mcpgo -server path/to/everything [-mode default|legacy] [-strict]
//
// Mode default is the SDK's own default: Client.Initialize with no protocol
// version, which in v1.2 probes with server/discover at 2026-07-28 (bounded
// by a 5 s timeout) and falls back to initialize at 2025-11-25 on any error
// other than a recognised modern one. Mode legacy uses the option
// client.WithProtocolVersion("2025-11-25"), which skips the probe; the
// deprecated client.WithLegacyProtocolOnly() and an InitializeRequest whose
// ProtocolVersion is a legacy version do the same.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/mcpwire/mcpwire/interop/go/internal/harness"
	"github.com/mcpwire/mcpwire/interop/go/internal/scenario"
)

func main() {
	server := flag.String("server", os.Getenv("INTEROP_SERVER"), "path of the built cmd/everything (default $INTEROP_SERVER)")
	mode := flag.String("mode", "default", "default (the SDK's discover-first connect) or legacy (initialize only)")
	strict := flag.Bool("strict", harness.StrictFromEnv(), "report SKIP as FAIL (default $INTEROP_STRICT)")
	flag.Parse()
	if *server == "" || (*mode != "default" && *mode != "legacy") {
		flag.Usage()
		os.Exit(2)
	}
	r := harness.NewReport(os.Stdout, *strict)
	r.Info("client mcp-go v1.2.1, mode %s", *mode)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	scenario.Run(ctx, scenario.Config{
		Server:     *server,
		ServerArgs: []string{"-page-size", "2"},
		Connect:    connect(*mode == "legacy"),
		WantModern: *mode == "default",
		WireFile:   os.Getenv("INTEROP_WIRE_FILE"),
	}, r)
	if r.Failed() {
		fmt.Println("RESULT FAIL")
		os.Exit(1)
	}
	fmt.Println("RESULT PASS")
}
