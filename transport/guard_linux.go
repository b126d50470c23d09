//go:build linux

package transport

import (
	"os"
	"syscall"
)

// guardStdout duplicates descriptor 1 for the protocol and points
// descriptor 1 at standard error.
//
// The duplicate is made with F_DUPFD_CLOEXEC, so it is close-on-exec from
// birth and no child process can inherit the protocol stream. ForkLock is
// still held (for writing, which also excludes fork) across the whole
// sequence, so that a fork started meanwhile sees descriptor 1 either
// before the guard or after it, never half-way.
func guardStdout() (*os.File, error) {
	syscall.ForkLock.Lock()
	defer syscall.ForkLock.Unlock()
	r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, 1, syscall.F_DUPFD_CLOEXEC, 0)
	if errno != 0 {
		return nil, errno
	}
	fd := int(r)
	if err := syscall.Dup3(2, 1, 0); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), "mcp-stdout"), nil
}
