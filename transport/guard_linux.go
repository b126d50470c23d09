//go:build linux

package transport

import (
	"os"
	"syscall"
)

// guardStdout duplicates descriptor 1 for the protocol and points
// descriptor 1 at standard error.
func guardStdout() (*os.File, error) {
	fd, err := syscall.Dup(1)
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(fd)
	if err := syscall.Dup3(2, 1, 0); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), "mcp-stdout"), nil
}
