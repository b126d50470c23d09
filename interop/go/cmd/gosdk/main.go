// Command gosdk drives the server under test with the official Go SDK,
// github.com/modelcontextprotocol/go-sdk, over stdio, runs the interop
// scenario and prints one PASS, FAIL or SKIP line per check. It exits 1 when
// any check failed.
//
// If INTEROP_WIRE_FILE is set, the transcript of the run is written there.
//
// Usage:
//
//	gosdk -server path/to/everything [-mode default|legacy] [-strict]
//
// Mode default is the SDK's own default: Client.Connect with no
// ClientSessionOptions, which in v1.8 asks for protocol version 2026-07-28
// and so sends server/discover first, falling back to initialize at
// 2025-11-25 when the answer is any error other than a recognised modern
// one. Mode legacy sets ClientSessionOptions.ProtocolVersion to 2025-11-25,
// which skips the probe and sends initialize.
package main

import "github.com/mcpwire/mcpwire/interop/go/internal/clientcmd"

func main() {
	clientcmd.Main(clientcmd.Client{Label: "go-sdk v1.8.0", Connect: connect})
}
