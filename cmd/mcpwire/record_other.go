//go:build !unix

package main

import "os"

// forwarded are the signals record passes on to the server.
var forwarded = []os.Signal{os.Interrupt}

// signalName names a forwarded signal.
func signalName(sig os.Signal) string { return sig.String() }
