// Command mcpload is a load driver for MCP servers that speak the stdio
// transport. It is independent of any MCP library: it talks plain JSON-RPC
// over the child process's pipes, so it can measure any server command.
//
// Usage:
//
//	mcpload [flags] -- <server command and args>
//	mcpload -http [flags] -- <HTTP server command and args>
//	mcpload -url http://HOST:PORT/mcp [-pid PID] [flags]
//	mcpload -compare [-rounds N] subject.json other.json ...
//
// In the first form mcpload starts the command, performs the MCP handshake
// (initialize, then notifications/initialized) and runs the selected phases,
// each of which calls the server's echo tool:
//
//   - seq: N calls one at a time (calls/s, p50 and p99 latency);
//   - pipe: N calls with -depth requests outstanding (latency is measured
//     from sending a request to reading its matching response);
//   - big: one echo per -big-sizes entry (1 MiB and 8 MiB by default) whose
//     returned text must equal the text sent, byte for byte, while the
//     server's resident set size is sampled;
//   - list: -list-n sequential tools/list calls (p50 and p99);
//   - spawn: -spawns fresh processes, each timed from just before it is
//     started to its initialize reply (run after the others);
//   - soak: -soak-n sequential and then -soak-n pipelined calls, VmRSS and
//     the server's goroutine count (-stats FILE, which the server rewrites
//     with "goroutines=N", as bench/mcpwireecho -stats does) sampled every
//     -soak-every calls, and once more 3 s after the last call;
//   - slow: -slow-n calls of the server's slow tool ({"ms": -slow-ms}) sent
//     at once: how many were answered, how many refused as overloaded and
//     how soon, and the RSS growth per call kept.
//
// It also reports the server's CPU time per call (utime+stime from
// /proc/<pid>/stat), its peak resident set size (VmHWM) and, after stdin is
// closed, how long it takes to exit. Figures are printed as a table, or as
// one JSON object with -json.
//
// With -http the command serves Streamable HTTP: mcpload starts it, reads
// the first http:// URL it prints on stderr (passing the rest of its stderr
// on) and stops it with SIGTERM at the end; -url measures an endpoint
// already running (CPU and memory figures then need -pid). -era selects
// the protocol era: modern (2026-07-28, default) makes every call a
// stateless POST with the MCP-Protocol-Version, Mcp-Method and Mcp-Name
// headers and params._meta's protocolVersion and clientCapabilities;
// legacy sends initialize (2025-11-25) once and then POSTs with the
// Mcp-Session-Id it returned, and DELETEs the session at the end. The
// phases are seq and conc (default) and big: conc makes N calls from
// -depth callers at once, each holding a keep-alive connection of its own.
// Responses may be application/json or text/event-stream; events before
// the response are counted as notifications.
//
// The HTTP client is mcpload's own, not net/http's Client: a pool of up to
// -depth persistent HTTP/1.1 connections, on which the calling goroutine
// writes the whole request with one Write and reads the response itself
// with http.ReadResponse (so chunked, Content-Length and event-stream
// bodies are parsed by the standard library). net/http's Transport passes
// every request to per-connection reader and writer goroutines and back;
// on a small machine those hand-offs cost more than a fast server's answer
// and, under the concurrent load, about a core, and an instrument should
// cost little next to what it measures. A connection the server closes is
// dropped; a call that finds its reused connection closed before any byte
// of the response is retried once on a new one. -timeout bounds each
// request through the connection's deadline. Only http:// URLs are
// supported: an https:// one is refused.
//
// With -compare mcpload reads reports written with -json and prints
// them side by side, with the ratio of the first report to each other one.
//
// The exit status is 0 when every call succeeded and the server exited
// promptly, 1 when a call failed or a problem was flagged, 2 on a usage or
// start-up error. The measured process is the one started: a wrapper such
// as "go run" would be measured instead of the server it runs.
package main
