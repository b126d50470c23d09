//go:build linux

package transport

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// atomicWrite is the most a direct write may carry: PIPE_BUF, the size a
// pipe takes in one piece once poll reports it writable.
const atomicWrite = 4096

// pollfd is struct pollfd of poll(2).
type pollfd struct {
	fd      int32
	events  int16
	revents int16
}

const pollOut = 0x4 // POLLOUT

// writableCheck returns a function that reports whether a write of at
// most atomicWrite bytes to w would complete at once, without waiting for
// the peer to read: for a pipe or socket, poll(2) with no timeout says it
// has room. It returns nil when w is not a file it can ask, and then no
// write is made on its caller's goroutine.
func writableCheck(w io.Writer) func() bool {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	fd := -1
	if rc.Control(func(p uintptr) { fd = int(p) }) != nil || fd < 0 {
		return nil
	}
	return func() bool {
		p := pollfd{fd: int32(fd), events: pollOut}
		var zero syscall.Timespec
		n, _, errno := syscall.RawSyscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&p)), 1,
			uintptr(unsafe.Pointer(&zero)), 0, 0, 0)
		return errno == 0 && n == 1 && p.revents == pollOut
	}
}
