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

import "github.com/mcpwire/mcpwire/interop/go/internal/clientcmd"

func main() {
	clientcmd.Main(clientcmd.Client{Label: "mcp-go v1.6.0", Connect: connect})
}
