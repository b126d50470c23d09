//go:build !linux

package transport

import "io"

// atomicWrite is the most a direct write may carry (see the Linux
// version); unused where writableCheck is nil.
const atomicWrite = 4096

// writableCheck returns nil where no cheap, portable check exists: every
// message then goes through the writer goroutine.
func writableCheck(io.Writer) func() bool { return nil }
