package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// progressAfter is how long a review runs before progress lines appear:
// a quick review prints none (a variable for this package's tests).
var progressAfter = time.Second

// progress writes progress lines to stderr once the review has run for
// progressAfter. Its methods are safe for concurrent use and on nil.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
	after time.Duration
}

// newProgress starts the clock of a review's progress lines.
func newProgress(w io.Writer) *progress {
	return &progress{w: w, start: time.Now(), after: progressAfter}
}

// step announces a step, if the review has been long.
func (p *progress) step(format string, args ...any) {
	if p == nil || time.Since(p.start) < p.after {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "mcpwire: "+format+"\n", args...)
}
