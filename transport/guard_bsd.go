//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package transport

import (
	"os"
	"syscall"
)

// guardStdout duplicates descriptor 1 for the protocol and points
// descriptor 1 at standard error.
//
// Dup makes a descriptor that is inherited across exec until CloseOnExec
// marks it, so ForkLock is held (for writing, which also excludes fork)
// from the Dup to the redirection of descriptor 1: a child process started
// meanwhile by another goroutine cannot inherit the protocol stream.
func guardStdout() (*os.File, error) {
	syscall.ForkLock.Lock()
	defer syscall.ForkLock.Unlock()
	fd, err := syscall.Dup(1)
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(fd)
	if err := syscall.Dup2(2, 1); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), "mcp-stdout"), nil
}
