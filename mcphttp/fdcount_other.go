//go:build !linux

package mcphttp

// countDescriptors cannot count open descriptors outside Linux (no
// /proc/self/fd): ok is false, and the headroom check never refuses.
func countDescriptors() (open, limit int, ok bool) { return 0, 0, false }
