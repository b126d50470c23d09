//go:build linux

package mcphttp

import (
	"errors"
	"io"
	"math"
	"os"
	"syscall"
)

// countDescriptors counts the process's open file descriptors, the
// entries of /proc/self/fd, and returns the soft RLIMIT_NOFILE they are
// bounded by; ok is false when either cannot be read, or the limit is
// unbounded.
func countDescriptors() (open, limit int, ok bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > math.MaxInt32 {
		return 0, 0, false
	}
	dir, err := os.Open("/proc/self/fd")
	if err != nil {
		return 0, 0, false
	}
	defer dir.Close()
	// In batches, so that a process with many descriptors open does not
	// hold all their names at once.
	for {
		names, err := dir.Readdirnames(1024)
		open += len(names)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, 0, false
		}
	}
	// The directory's own descriptor is among the entries, and is closed.
	return open - 1, int(rl.Cur), true
}
