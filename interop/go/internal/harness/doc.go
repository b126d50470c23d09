// Package harness runs the server under test as a child process for the
// interop clients: it hands a client SDK the child's stdin and stdout, records
// every line that crosses them (so that checks can look at the wire as well as
// at what the SDK reports), times the child's exit, and collects check results
// as PASS, FAIL or SKIP lines.
package harness
