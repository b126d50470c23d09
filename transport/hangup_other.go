//go:build !linux

package transport

import "os"

// watchHangup does nothing where the platform offers no portable way to
// see a pipe's hang-up before its unread data is read: there, input ends
// only when reading reaches its end.
func watchHangup(*os.File, <-chan struct{}, func()) {}
