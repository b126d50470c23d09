//go:build linux

package transport

import (
	"os"
	"syscall"
)

// epollRDHUP is EPOLLRDHUP: the peer of a socket shut down its writing
// side. (EPOLLHUP, for a pipe whose writers are all gone, is always
// reported.)
const epollRDHUP = 0x2000

// watchHangup calls hungUp once the peer closes its end of the pipe or
// socket f reads from, even while unread data remains in it, and stops
// watching when stop is closed. For anything epoll cannot watch (a regular
// file, say) it does nothing: reading reaches that input's end by itself.
//
// The watch is one epoll instance holding f's descriptor and the read end
// of a private pipe that stop closes, so the goroutine waits without a
// timeout and ends promptly.
func watchHangup(f *os.File, stop <-chan struct{}, hungUp func()) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	fd := -1
	rc.Control(func(p uintptr) { fd = int(p) })
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return
	}
	var wake [2]int
	if err := syscall.Pipe2(wake[:], syscall.O_CLOEXEC); err != nil {
		syscall.Close(ep)
		return
	}
	closeAll := func() { syscall.Close(ep); syscall.Close(wake[0]); syscall.Close(wake[1]) }
	watch := syscall.EpollEvent{Events: epollRDHUP, Fd: int32(fd)}
	stopEv := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(wake[0])}
	if syscall.EpollCtl(ep, syscall.EPOLL_CTL_ADD, fd, &watch) != nil ||
		syscall.EpollCtl(ep, syscall.EPOLL_CTL_ADD, wake[0], &stopEv) != nil {
		closeAll()
		return
	}
	stopped := make(chan struct{})
	go func() {
		<-stop
		syscall.Write(wake[1], []byte{0})
		close(stopped)
	}()
	go func() {
		// The descriptors are closed only after the stopper wrote to the
		// wake pipe, so it never writes to a closed (or reused) descriptor.
		defer func() { <-stopped; closeAll() }()
		events := make([]syscall.EpollEvent, 2)
		for {
			n, err := syscall.EpollWait(ep, events, -1)
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				return
			}
			for _, ev := range events[:n] {
				switch {
				case ev.Fd == int32(wake[0]):
					return
				case ev.Events&(syscall.EPOLLHUP|syscall.EPOLLERR|epollRDHUP) != 0:
					hungUp()
					// Level-triggered: stop watching f, wait for stop.
					syscall.EpollCtl(ep, syscall.EPOLL_CTL_DEL, fd, nil)
				}
			}
		}
	}()
}
