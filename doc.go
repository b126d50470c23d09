// Package mcpwire runs MCP servers over stdio: RunStdio wires a server to
// the process's standard input and output, guards stdout, and stops cleanly
// on stdin EOF, SIGINT or SIGTERM.
//
// The layers live in their own packages: jsonrpc (messages and codec),
// transport (framing over byte streams), mcp (the protocol), tool (tools,
// results and content blocks).
package mcpwire
