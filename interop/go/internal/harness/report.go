package harness

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// Status is the outcome of one check.
type Status string

// The outcomes a check can have.
const (
	Pass Status = "PASS"
	Fail Status = "FAIL"
	Skip Status = "SKIP" // the server lacks what the check needs; a failure under strict
)

// Report prints one line per check, "STATUS check: detail", and remembers
// whether anything failed. Its methods are safe for concurrent use.
type Report struct {
	// Strict turns every SKIP into a FAIL.
	Strict bool

	mu     sync.Mutex
	out    io.Writer
	failed bool
}

// NewReport returns a report that writes to out.
func NewReport(out io.Writer, strict bool) *Report {
	return &Report{out: out, Strict: strict}
}

// StrictFromEnv reports whether INTEROP_STRICT asks for strict mode.
func StrictFromEnv() bool {
	v := os.Getenv("INTEROP_STRICT")
	return v != "" && v != "0" && !strings.EqualFold(v, "false")
}

// Pass records a passed check.
func (r *Report) Pass(check, format string, args ...any) { r.add(Pass, check, format, args...) }

// Fail records a failed check.
func (r *Report) Fail(check, format string, args ...any) { r.add(Fail, check, format, args...) }

// Skip records a check that could not run because the server lacks what it
// needs. Under Strict it is recorded as a failure.
func (r *Report) Skip(check, format string, args ...any) {
	if r.Strict {
		r.add(Fail, check, "skipped under strict: "+format, args...)
		return
	}
	r.add(Skip, check, format, args...)
}

// Info prints a line of context that is not a check.
func (r *Report) Info(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.out, "INFO %s\n", oneLine(fmt.Sprintf(format, args...)))
}

// Failed reports whether any check failed.
func (r *Report) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

func (r *Report) add(st Status, check, format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if st == Fail {
		r.failed = true
	}
	fmt.Fprintf(r.out, "%s %s: %s\n", st, check, oneLine(fmt.Sprintf(format, args...)))
}

// oneLine keeps a detail on one output line, so that the runner can parse it.
func oneLine(s string) string {
	return strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(s)
}
