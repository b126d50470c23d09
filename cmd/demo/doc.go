// Command demo is the program behind `make demo`: it builds cmd/everything,
// starts it with its stdin and stdout on pipes, and drives a short scripted
// MCP session over them, printing every line that crosses the pipes.
//
// The session shows the handshake at 2025-11-25, tools/list followed across
// its pages, a few tool calls (with progress notifications), one error of
// each class, a cancelled call that is never answered, and the server's
// exit when its stdin closes. Every response is awaited with a timeout, so
// the demo cannot hang; a check that does not hold prints a FAIL line and
// makes the program exit with status 1.
//
// Colour is used only when stdout is a terminal (and NO_COLOR is unset), so
// `make demo | cat` and CI logs stay plain text.
//
// Usage, from anywhere inside the module:
//
//	go run ./cmd/demo
package main
