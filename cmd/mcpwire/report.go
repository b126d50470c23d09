package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/client"
	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/review"
	"github.com/mcpwire/mcpwire/protocol"
)

// Exit statuses.
const (
	exitOK       = 0 // everything admitted
	exitRejected = 1 // something rejected
	exitNotRun   = 2 // the review could not run, or the command line is wrong
)

// Gates the command adds to package review's admit and consume.
const (
	gateDiscover = "discover" // listing: may a client rely on what is listed?
	gateInvoke   = "invoke"   // calling: did the call get a usable answer?
)

// Rule ids of the command's own findings (package review has the rest).
const (
	ruleListRefused     = "list-refused"     // a list the server declares was answered with an error
	ruleListInvalid     = "list-invalid"     // a page is not an object, its items not an array, or nextCursor not a string
	ruleListOrder       = "list-order"       // two listings gave the same items in another order
	ruleListContent     = "list-content"     // two listings gave different items, or an item changed
	ruleListDuplicate   = "list-duplicate"   // one listing gave two items of the same name (or uri)
	ruleWire            = "wire-message"     // the server wrote a line no client can use (garbage, a stray response, a batch)
	ruleCallError       = "call-error"       // a no-argument call was refused as a bad request (-32700, -32600, -32601, -32602)
	ruleCallTimeout     = "call-timeout"     // no answer within --timeout
	ruleCallFailed      = "call-failed"      // the answer could not be read, or the server ended the connection
	ruleInputUndeclared = "input-undeclared" // the server asked for input the client did not declare (sampling)
)

// Outcomes of a tools/call.
const (
	outcomeNotCalled  = "not-called"
	outcomeSuccess    = "success"
	outcomeIsError    = "is-error"   // an isError result
	outcomeError      = "error"      // a JSON-RPC error response
	outcomeTimeout    = "timeout"    // no answer within --timeout
	outcomeFailed     = "failed"     // no usable answer
	outcomeIncomplete = "incomplete" // a resultType other than complete, such as task
)

// report is the whole review: the --json document, and what the table
// shows.
type report struct {
	Server            *protocol.Implementation     `json:"server,omitempty"`
	Era               string                       `json:"era,omitempty"`
	Revision          string                       `json:"revision,omitempty"`
	Detection         *detection                   `json:"detection,omitempty"`
	Capabilities      *protocol.ServerCapabilities `json:"capabilities,omitempty"`
	Pages             map[string]int               `json:"pages"`
	Tools             []*toolReport                `json:"tools"`
	Resources         []*itemReport                `json:"resources"`
	ResourceTemplates []*itemReport                `json:"resourceTemplates"`
	Prompts           []*itemReport                `json:"prompts"`
	Problems          []review.Problem             `json:"problems"`
	Failure           *failure                     `json:"failure,omitempty"`
	Ended             *failure                     `json:"ended,omitempty"` // the server ended the connection during a call
	Verdict           string                       `json:"verdict"`         // admitted, rejected or not-run
	Exit              int                          `json:"exit"`

	command string // the server command's base name, for the table
}

// detection is client.Detection for the report.
type detection struct {
	Summary       string         `json:"summary"`
	Discover      string         `json:"discover"` // not-sent, answered, refused, silent, garbled
	DiscoverError *protocolError `json:"discoverError,omitempty"`
	Invalid       string         `json:"invalid,omitempty"`
	WaitedMS      int64          `json:"waitedMs"`
	Retried       string         `json:"retried,omitempty"`
	Initialize    bool           `json:"initialize"` // initialize was answered
}

// protocolError is a JSON-RPC error's code and clipped message.
type protocolError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

// toolReport is the review of one tool.
type toolReport struct {
	Name     string                 `json:"name"`
	Admitted bool                   `json:"admitted"` // no gate refused it: its descriptor, its result when called
	Called   bool                   `json:"called"`
	Outcome  string                 `json:"outcome"`
	Reason   string                 `json:"reason,omitempty"` // why it was not called, or what the call got
	Problems []review.Problem       `json:"problems"`
	Headers  []review.HeaderVerdict `json:"headers"`

	descriptor json.RawMessage
	described  bool // the descriptor passed the admit gate
}

// itemReport is the review of one resource, template or prompt.
type itemReport struct {
	Name     string           `json:"name"`
	URI      string           `json:"uri,omitempty"` // a resource's uri, a template's uriTemplate
	Admitted bool             `json:"admitted"`
	Problems []review.Problem `json:"problems"`

	descriptor json.RawMessage
}

// failure says why the review could not run, or how the server ended
// during it.
type failure struct {
	Stage  string   `json:"stage"` // start, connect, discover, review; invoke (Ended)
	Error  string   `json:"error"`
	Exit   string   `json:"exit,omitempty"`   // how the server's process ended
	Stderr []string `json:"stderr,omitempty"` // the last lines of its stderr
}

// newReport returns an empty report.
func newReport() *report {
	return &report{Pages: map[string]int{}, Tools: []*toolReport{}, Resources: []*itemReport{},
		ResourceTemplates: []*itemReport{}, Prompts: []*itemReport{}, Problems: []review.Problem{}}
}

// fail records why the review could not run. srv, when the process
// started, is stopped first, so that how it ended and its last stderr
// lines are known.
func (r *report) fail(stage string, err error, srv *server) {
	r.Failure = ending(stage, err, srv)
}

// ending describes err and, when srv is not nil, how the process ended,
// stopping it first.
func ending(stage string, err error, srv *server) *failure {
	f := &failure{Stage: stage, Error: trimClient(err)}
	if srv != nil {
		srv.stop()
		f.Exit = srv.exit()
		f.Stderr = srv.stderr.Lines()
	}
	return f
}

// describe records what the session settled.
func (r *report) describe(s *client.Session) {
	info := s.ServerInfo()
	r.Server, r.Era, r.Revision = &info, s.Era().String(), s.Revision()
	caps := s.Capabilities()
	r.Capabilities = &caps
	d := s.Detection()
	r.Detection = &detection{
		Summary: d.String(), Discover: answerName(d.Discover), WaitedMS: d.Waited.Milliseconds(),
		Retried: d.Retried, Initialize: d.Initialized,
	}
	if e := d.DiscoverError; e != nil {
		r.Detection.DiscoverError = &protocolError{Code: e.Code, Message: clip.String(e.Message)}
	}
	if d.Invalid != nil {
		r.Detection.Invalid = clip.String(d.Invalid.Error())
	}
}

// answerName names a probe answer for the JSON document.
func answerName(a client.Answer) string {
	switch a {
	case client.Answered:
		return "answered"
	case client.Refused:
		return "refused"
	case client.Silent:
		return "silent"
	case client.Garbled:
		return "garbled"
	}
	return "not-sent"
}

// problem records a server-level finding.
func (r *report) problem(gate, rule, message string) {
	r.Problems = append(r.Problems, review.Problem{Gate: gate, Rule: rule, Message: message})
}

// wire records what the session found wrong in the server's lines, each
// distinct finding once with the number of times it was met, and the
// first line of stdout that was not JSON, when there was one.
func (r *report) wire(problems []error, stdout *sniffer) {
	if notJSON, first := stdout.seen(); notJSON > 0 {
		r.problem(gateDiscover, ruleWire, fmt.Sprintf("%s on stdout %s not JSON, the first: %s; "+
			"a host may drop the connection at the first (log to stderr instead)", count(notJSON, "line"), isAre(notJSON), strconv.Quote(first)))
	}
	var order []string
	times := map[string]int{}
	for _, p := range problems {
		msg := trimClient(p)
		if times[msg]++; times[msg] == 1 {
			order = append(order, msg)
		}
	}
	for _, msg := range order {
		if n := times[msg]; n > 1 {
			msg += fmt.Sprintf(" (%d times)", n)
		}
		r.problem(gateDiscover, ruleWire, msg)
	}
}

// isAre is "is" for one, "are" for more.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// rejected counts the tools, items and server problems refused.
func (r *report) rejected() int {
	n := len(r.Problems)
	for _, k := range []kind{toolKind, resourceKind, templateKind, promptKind} {
		n += r.refused(k)
	}
	return n
}

// finish sets the verdict and the exit status.
func (r *report) finish() *report {
	switch {
	case r.Failure != nil:
		r.Verdict, r.Exit = "not-run", exitNotRun
	case r.rejected() > 0:
		r.Verdict, r.Exit = "rejected", exitRejected
	default:
		r.Verdict, r.Exit = "admitted", exitOK
	}
	return r
}

// trimClient returns err's message without package client's prefixes:
// the report says who is speaking.
func trimClient(err error) string { return strings.ReplaceAll(err.Error(), "client: ", "") }

// ms rounds d for messages.
func ms(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
