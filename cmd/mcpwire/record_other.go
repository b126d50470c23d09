//go:build !unix

package main

import "os"

// forwarded are the signals record passes on to the server.
var forwarded = []os.Signal{os.Interrupt}

// signalOf reports no signal where processes are not ended by them.
func signalOf(*os.ProcessState) (int, bool) { return 0, false }

// signalName names a forwarded signal.
func signalName(sig os.Signal) string { return sig.String() }
