//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package transport

import "os"

// guardStdout is not available on this platform; the stream writes to
// os.Stdout unguarded.
func guardStdout() (*os.File, error) { return nil, nil }
