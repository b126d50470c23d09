package check

import (
	"fmt"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/internal/peer/review"
	"github.com/mcpwire/mcpwire/protocol"
)

// Verdicts of a review.
const (
	Admitted = "admitted" // nothing was refused
	Rejected = "rejected" // a descriptor, a result, a call or the server was refused
	NotRun   = "not-run"  // the review could not run
)

// Transports of mcpwire check (Report.Transport).
const (
	TransportStdio = "stdio"           // a subprocess's stdin and stdout
	TransportHTTP  = "streamable-http" // an MCP endpoint URL
)

// Exit statuses of mcpwire check, one per verdict (Report.Exit).
const (
	ExitOK       = 0 // admitted
	ExitRejected = 1 // rejected
	ExitNotRun   = 2 // not-run (the command also gives it for a wrong command line)
)

// Report is the whole review of one server: mcpwire check's --json
// document, and what its table and mcptest.Check show. Its lists are
// never nil, so that they encode as [] and {}.
type Report struct {
	// Transport is how the server was reached, set by the caller (mcpwire
	// check: TransportStdio or TransportHTTP); "" leaves it out.
	Transport         string                       `json:"transport,omitempty"`
	Server            *protocol.Implementation     `json:"server,omitempty"`
	Era               string                       `json:"era,omitempty"`
	Revision          string                       `json:"revision,omitempty"`
	Detection         *Detection                   `json:"detection,omitempty"`
	Capabilities      *protocol.ServerCapabilities `json:"capabilities,omitempty"`
	Pages             map[string]int               `json:"pages"` // per List.Member, for the lists read
	Tools             []*ToolReport                `json:"tools"`
	Resources         []*ItemReport                `json:"resources"`
	ResourceTemplates []*ItemReport                `json:"resourceTemplates"`
	Prompts           []*ItemReport                `json:"prompts"`
	Problems          []review.Problem             `json:"problems"` // the server's own findings
	Failure           *Failure                     `json:"failure,omitempty"`
	Ended             *Failure                     `json:"ended,omitempty"` // the server ended the connection during a call
	Verdict           string                       `json:"verdict"`         // Admitted, Rejected or NotRun
	Exit              int                          `json:"exit"`            // ExitOK, ExitRejected or ExitNotRun
}

// Detection is client.Detection for the report.
type Detection struct {
	Summary       string         `json:"summary"`
	Discover      string         `json:"discover"` // not-sent, answered, refused, silent, garbled
	DiscoverError *ProtocolError `json:"discoverError,omitempty"`
	Invalid       string         `json:"invalid,omitempty"`
	WaitedMS      int64          `json:"waitedMs"`
	Retried       string         `json:"retried,omitempty"`
	Initialize    bool           `json:"initialize"` // initialize was answered
}

// ProtocolError is a JSON-RPC error's code and clipped message.
type ProtocolError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

// ToolReport is the review of one tool.
type ToolReport struct {
	Name     string                 `json:"name"`
	Admitted bool                   `json:"admitted"` // no gate refused it: its descriptor, its result when called
	Called   bool                   `json:"called"`
	Outcome  string                 `json:"outcome"`          // one of the Outcome* constants
	Reason   string                 `json:"reason,omitempty"` // why it was not called (a Skip* constant), or what the call got
	Problems []review.Problem       `json:"problems"`
	Headers  []review.HeaderVerdict `json:"headers"`

	descriptor json.RawMessage
	described  bool // the descriptor passed the admit gate
}

// ItemReport is the review of one resource, template or prompt.
type ItemReport struct {
	Name     string           `json:"name"`
	URI      string           `json:"uri,omitempty"` // a resource's uri, a template's uriTemplate
	Admitted bool             `json:"admitted"`
	Problems []review.Problem `json:"problems"`

	descriptor json.RawMessage
}

// Failure says why the review could not run, or how the server ended
// during it. The caller that owns the server's process adds how it ended.
type Failure struct {
	Stage  string   `json:"stage"` // start, connect, discover, review; invoke (Ended)
	Error  string   `json:"error"`
	Exit   string   `json:"exit,omitempty"`   // how the server's process ended
	Stderr []string `json:"stderr,omitempty"` // the last lines of its stderr
}

// NewReport returns an empty report, for a caller whose review could not
// reach Run (see Fail).
func NewReport() *Report {
	return &Report{Pages: map[string]int{}, Tools: []*ToolReport{}, Resources: []*ItemReport{},
		ResourceTemplates: []*ItemReport{}, Prompts: []*ItemReport{}, Problems: []review.Problem{}}
}

// Fail records why the review could not run, at stage (the caller's
// stages are start and connect).
func (r *Report) Fail(stage string, err error) {
	r.Failure = &Failure{Stage: stage, Error: Trim(err)}
}

// Finish sets the verdict and the exit status from what was found, and
// returns r.
func (r *Report) Finish() *Report {
	switch {
	case r.Failure != nil:
		r.Verdict, r.Exit = NotRun, ExitNotRun
	case r.rejected() > 0:
		r.Verdict, r.Exit = Rejected, ExitRejected
	default:
		r.Verdict, r.Exit = Admitted, ExitOK
	}
	return r
}

// describe records what the session settled.
func (r *Report) describe(s *client.Session) {
	info := s.ServerInfo()
	r.Server, r.Era, r.Revision = &info, s.Era().String(), s.Revision()
	caps := s.Capabilities()
	r.Capabilities = &caps
	d := s.Detection()
	r.Detection = &Detection{
		Summary: d.String(), Discover: answerName(d.Discover), WaitedMS: d.Waited.Milliseconds(),
		Retried: d.Retried, Initialize: d.Initialized,
	}
	if e := d.DiscoverError; e != nil {
		r.Detection.DiscoverError = &ProtocolError{Code: e.Code, Message: clip.String(e.Message)}
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
func (r *Report) problem(gate, rule, message string) {
	r.Problems = append(r.Problems, review.Problem{Gate: gate, Rule: rule, Message: message})
}

// wire records what the session found wrong in the server's lines, each
// distinct finding once with the number of times it was met.
func (r *Report) wire(problems []error) {
	var order []string
	times := map[string]int{}
	for _, p := range problems {
		msg := Trim(p)
		if times[msg]++; times[msg] == 1 {
			order = append(order, msg)
		}
	}
	for _, msg := range order {
		if n := times[msg]; n > 1 {
			msg += fmt.Sprintf(" (%d times)", n)
		}
		r.problem(GateDiscover, RuleWire, msg)
	}
}

// Trim returns err's message without package client's prefixes: the
// report says who is speaking.
func Trim(err error) string { return strings.ReplaceAll(err.Error(), "client: ", "") }
