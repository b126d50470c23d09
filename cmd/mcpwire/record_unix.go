//go:build unix

package main

import (
	"os"
	"syscall"
)

// forwarded are the signals record passes on to the server.
var forwarded = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// signalNames are the forwarded signals as a shell names them.
var signalNames = map[os.Signal]string{os.Interrupt: "SIGINT", syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP"}

// signalName names a forwarded signal as a shell does (SIGINT).
func signalName(sig os.Signal) string {
	if n, ok := signalNames[sig]; ok {
		return n
	}
	return sig.String()
}
