// Package testsupport holds nothing itself: its subpackages are what the
// tests of several packages share (a fake call context, a goroutine leak
// check, a locked buffer, a client connected to a server over a pipe, a
// scripted example client, the wire checks against the official schemas,
// and commonserver, the common server whose imports issue 26 counts). Library code does not import them, with
// one exception: the golden engine's HTTP replay checks for leaks with
// leakcheck.
package testsupport
