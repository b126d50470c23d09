package main

import (
	"bytes"
	"sync"
	"unicode/utf8"
)

// Bounds of the stderr tail.
const (
	tailLines    = 20  // lines kept
	tailLineSize = 240 // bytes kept of each line
)

// tail is an io.Writer that keeps the last lines written to it, each
// clipped: the reviewed server's stderr, shown when the review fails. It
// is safe for concurrent use.
type tail struct {
	mu      sync.Mutex
	max     int
	lines   []string
	partial []byte // the line being written, up to tailLineSize bytes
}

// newTail returns a tail keeping max lines.
func newTail(max int) *tail { return &tail{max: max} }

// Write keeps p's lines; it never fails.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.keep(p)
			break
		}
		t.keep(p[:i])
		t.push()
		p = p[i+1:]
	}
	return n, nil
}

// cut returns a line as a string, with an ellipsis when it filled its
// bound (the rest was dropped), never splitting a character.
func cut(b []byte) string {
	if len(b) < tailLineSize {
		return string(b)
	}
	for range utf8.UTFMax - 1 { // a character cut short at the bound
		if r, size := utf8.DecodeLastRune(b); r != utf8.RuneError || size != 1 {
			break
		}
		b = b[:len(b)-1]
	}
	return string(b) + "…"
}

// keep adds b to the line being written, up to its bound.
func (t *tail) keep(b []byte) {
	if room := tailLineSize - len(t.partial); room > 0 {
		t.partial = append(t.partial, b[:min(len(b), room)]...)
	}
}

// push ends the line being written.
func (t *tail) push() {
	line := cut(bytes.TrimRight(t.partial, "\r"))
	t.partial = t.partial[:0]
	if len(t.lines) == t.max {
		t.lines = append(t.lines[:0], t.lines[1:]...)
	}
	t.lines = append(t.lines, line)
}

// Lines returns the lines kept, with a last line not yet ended.
func (t *tail) Lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.lines...)
	if len(t.partial) > 0 {
		out = append(out, cut(t.partial))
	}
	return out
}
