// Package scenario is the interop scenario that every Go client SDK runs
// against the server under test: connect, list every tool across pages, call
// echo, add, tag_catalog, fail, evidence_bundle and an unknown tool, run slow
// with progress and with a cancel, check the wire, then close stdin and
// expect the server to exit.
//
// A client SDK takes part through a small adapter, a [Connect] function that
// returns a [Session]; everything else (the child process, the wire
// transcript, the checks and their report) is shared. [ProgressRoutes],
// [ToolsOf] and [NewResult] are the parts every adapter needs.
package scenario
