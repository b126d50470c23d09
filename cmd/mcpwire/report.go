package main

import (
	"fmt"
	"strconv"
	"time"

	"github.com/mcpwire/mcpwire/internal/peer/check"
	"github.com/mcpwire/mcpwire/internal/peer/review"
)

// Exit statuses.
const (
	exitOK       = check.ExitOK       // everything admitted
	exitRejected = check.ExitRejected // something rejected
	exitNotRun   = check.ExitNotRun   // the review could not run, or the command line is wrong
)

// The report's words the table and this package's tests use.
const (
	outcomeNotCalled = check.OutcomeNotCalled
	outcomeSuccess   = check.OutcomeSuccess
	outcomeIsError   = check.OutcomeIsError
	outcomeError     = check.OutcomeError
	outcomeTimeout   = check.OutcomeTimeout
	outcomeFailed    = check.OutcomeFailed

	skipNotAdmitted = check.SkipNotAdmitted
	skipNeedsArgs   = check.SkipNeedsArgs
	skipNotReadOnly = check.SkipNotReadOnly
	skipServerGone  = check.SkipServerGone
	skipOutOfTime   = check.SkipOutOfTime
)

// The lists, for the table.
var (
	toolKind     = check.ToolList
	resourceKind = check.ResourceList
	templateKind = check.TemplateList
	promptKind   = check.PromptList
)

// report is package check's report and what only the command knows: the
// server command's name, for the table's header. The --json document is
// the check.Report alone.
type report struct {
	*check.Report
	command string // the server command's base name
}

// toolReport and itemReport are package check's, for the table.
type (
	toolReport = check.ToolReport
	itemReport = check.ItemReport
)

// newReport returns an empty report.
func newReport() *report { return &report{Report: check.NewReport()} }

// finish sets the verdict and the exit status.
func (r *report) finish() *report {
	r.Finish()
	return r
}

// ended adds to f how the server's process ended and its last stderr
// lines, stopping it first.
func ended(f *check.Failure, srv *server) {
	if f == nil {
		return
	}
	srv.stop()
	f.Exit = srv.exit()
	f.Stderr = srv.stderr.Lines()
}

// notJSON reports the lines of the server's stdout that were not JSON,
// quoting the first: the print a server author needs to find.
func notJSON(stdout *sniffer) []review.Problem {
	n, first := stdout.seen()
	if n == 0 {
		return nil
	}
	return []review.Problem{{Gate: check.GateDiscover, Rule: check.RuleWire, Message: fmt.Sprintf("%s on stdout %s not JSON, the first: %s; "+
		"a host may drop the connection at the first (log to stderr instead)", count(n, "line"), isAre(n), strconv.Quote(first))}}
}

// isAre is "is" for one, "are" for more.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// ms rounds d for messages.
func ms(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
