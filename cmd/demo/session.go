package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"
)

// responseTimeout bounds every wait for a server line, and the server's
// exit after its stdin closes, so the demo cannot hang.
const responseTimeout = 5 * time.Second

// sessionTimeout bounds the whole session: past it the server is killed,
// which ends every wait and write at once.
const sessionTimeout = 60 * time.Second

// serverArgs start the server with its fault fixtures (the demo shows a
// panicking handler answered with -32603) and one tool a page, so that the
// tools/list step shows one tool's entry, not the whole list.
var serverArgs = []string{"-fixtures", "-page-size", "1"}

// errTimeout and errEOF are why a wait for a server line ended without one.
var (
	errTimeout = errors.New("timed out")
	errEOF     = errors.New("the server closed its stdout")
)

// wireLine is one line that crossed the pipes, and how it was printed.
type wireLine struct {
	fromServer bool
	raw        []byte
	masked     []byte // raw with its values random per run replaced, when the step masks
	shown      string
}

// session drives one server through the steps. It is not safe for
// concurrent use.
type session struct {
	p       *printer
	srv     *server
	timeout time.Duration
	nextID  int
	sources string // cmd/everything's source directory (options.sources)

	limit int                 // bytes of a wire line shown (maxShown, or wideShown in wide steps)
	cut   func([]byte) int    // when set, where a line is cut instead of limit (0: not this line)
	mask  func([]byte) []byte // when set, the line printed in place of one, with values random per run replaced by placeholders
	wire  []wireLine          // every line that crossed the pipes, in order

	checks, failures int
	cancelled        map[string]bool // ids whose response must never arrive
	eof              bool            // the server's stdout has ended
	gone             string          // why the script cannot go on, once it cannot
	exited           bool            // the server process has been waited for
	listenID         string          // the open subscriptions/listen request, once sent

	bin  string      // the server binary, for the HTTP steps
	http *httpServer // the HTTP server, while the HTTP steps run
}

// options are what a run shows and how.
type options struct {
	color bool // ANSI colour in the output
	all   bool // every step (-all), not only the default set
	// sources is cmd/everything's source directory: each step prints the Go
	// source of the tools it calls from there. Empty: no source is shown.
	sources string
}

// runSession starts the server binary at bin, runs the steps opts selects
// against it, printing to out, and returns an error when any check failed.
func runSession(bin string, out io.Writer, opts options) error {
	_, err := runScript(bin, out, opts, responseTimeout)
	return err
}

// runScript is runSession with every wait bounded by timeout; it also
// returns the session, for its transcript.
func runScript(bin string, out io.Writer, opts options, timeout time.Duration) (*session, error) {
	p := newPrinter(out, opts.color)
	p.title("mcpwire demo: cmd/everything %s on stdio pipes. → client, ← server, lines as sent (long ones cut). %s",
		strings.Join(serverArgs, " "), modeNote(opts.all))
	srv, err := startServer(bin, serverArgs...)
	if err != nil {
		p.fail("starting the server: %v", err)
		return nil, err
	}
	watchdog := time.AfterFunc(sessionTimeout, srv.kill)
	defer watchdog.Stop()

	s := &session{p: p, srv: srv, timeout: timeout, limit: maxShown, cancelled: map[string]bool{}, bin: bin, sources: opts.sources}
	stdio := selected(steps, opts.all)
	n := 0 // the number of the step last shown
	for i, st := range stdio {
		n++
		s.heading(n, st)
		if s.gone != "" && i < len(stdio)-1 { // the last step ends the process
			p.note("(skipped: %s)", s.gone)
			continue
		}
		st.run(s)
	}
	if !s.exited { // a step went wrong before the last step could finish
		s.srv.kill()
		s.drain(nil)
		<-s.srv.exited
	}
	if s.failures == 0 { // the same binary over HTTP, once stdio held
		for _, st := range selected(httpSteps, opts.all) {
			n++
			s.heading(n, st)
			st.run(s)
		}
	}
	p.plain("")
	if s.failures > 0 {
		p.stderr(srv.stderr.Bytes(), 10)
		p.fail("demo failed: %d of %d checks did not hold", s.failures, s.checks)
		return s, fmt.Errorf("%d of %d checks failed", s.failures, s.checks)
	}
	p.ok("all %d checks held", s.checks)
	return s, nil
}

// modeNote ends the title: what -all adds, or that it is on.
func modeNote(all bool) string {
	if all {
		return "-all: every step"
	}
	return "-all adds elicitation, resources/prompts and HTTP"
}

// heading prints step st's era heading, if it has one, and its numbered
// caption.
func (s *session) heading(n int, st step) {
	if st.era != "" {
		s.p.era(st.era)
	}
	s.p.step(n, st.caption)
	if s.sources == "" {
		return
	}
	for _, name := range st.tools {
		src, file, err := toolSource(s.sources, name)
		if !s.check(err == nil, "the source of %s: %v", name, err) {
			continue
		}
		s.p.source("cmd/everything/"+file, src)
	}
}

// check records a check and prints it only when it does not hold; it
// returns ok.
func (s *session) check(ok bool, format string, args ...any) bool {
	s.checks++
	if !ok {
		s.failures++
		s.p.fail(format, args...)
	}
	return ok
}

// wide runs f with wire lines shown up to wideShown bytes: for the steps
// whose lines are the point.
func (s *session) wide(f func()) {
	s.limit = wideShown
	defer func() { s.limit = maxShown }()
	f()
}

// send writes one line to the server and prints it; once the script cannot
// go on it does nothing.
func (s *session) send(line string) {
	if s.gone != "" {
		return
	}
	masked, shown := s.shown([]byte(line))
	s.wire = append(s.wire, wireLine{raw: []byte(line), masked: masked, shown: shown})
	s.p.client(shown)
	if err := s.srv.write([]byte(line)); err != nil {
		s.check(false, "writing to the server's stdin: %v", err)
		s.gone = "the server's stdin is closed"
	}
}

// shown is how a wire line is printed: masked when the step masks (masked
// is then the line with its placeholders, nil otherwise), then cut where
// the step cuts or at the limit.
func (s *session) shown(line []byte) (masked []byte, shown string) {
	if s.mask != nil {
		masked = s.mask(line)
		line = masked
	}
	n := s.limit
	if s.cut != nil {
		if c := s.cut(line); c > 0 {
			n = c
		}
	}
	return masked, clip(line, n)
}

// newID returns the next request id, as JSON.
func (s *session) newID() string {
	s.nextID++
	return strconv.Itoa(s.nextID)
}

// request sends a request (params may be empty) and returns its id.
func (s *session) request(method, params string) string {
	id := s.newID()
	s.send(`{"jsonrpc":"2.0","id":` + id + `,"method":` + jsonString(method) + withParams(params) + `}`)
	return id
}

// notify sends a notification (params may be empty).
func (s *session) notify(method, params string) {
	s.send(`{"jsonrpc":"2.0","method":` + jsonString(method) + withParams(params) + `}`)
}

// withParams is the params member for params, or nothing when it is empty.
func withParams(params string) string {
	if params == "" {
		return ""
	}
	return `,"params":` + params
}

// receive waits until deadline fires (forever when it is nil) for the next
// server line, prints it and returns it decoded.
func (s *session) receive(deadline <-chan time.Time) (message, error) {
	if s.eof {
		return message{}, errEOF
	}
	select {
	case line, ok := <-s.srv.lines:
		if !ok {
			s.eof = true
			return message{}, errEOF
		}
		masked, shown := s.shown(line)
		s.wire = append(s.wire, wireLine{fromServer: true, raw: line, masked: masked, shown: shown})
		m := decode(line)
		s.p.server(shown, m.Error != nil)
		if m.isResponse() && s.cancelled[string(m.ID)] {
			s.check(false, "a response arrived for the cancelled request %s", m.ID)
		}
		return m, nil
	case <-deadline:
		return message{}, errTimeout
	}
}

// await reads server lines until one satisfies match and returns it with
// the lines read before it. After the timeout, or at EOF, it records a
// failure, marks the script as unable to go on, and ok is false; once the
// script cannot go on, it returns at once.
func (s *session) await(what string, match func(message) bool) (m message, before []message, ok bool) {
	if s.gone != "" {
		return message{}, nil, false
	}
	t := time.NewTimer(s.timeout)
	defer t.Stop()
	for {
		m, err := s.receive(t.C)
		switch {
		case errors.Is(err, errTimeout):
			s.check(false, "no %s within %s", what, s.timeout)
			s.gone = "the server stopped answering"
			return message{}, before, false
		case err != nil:
			s.check(false, "%v while waiting for %s", err, what)
			s.gone = err.Error()
			return message{}, before, false
		case match(m):
			return m, before, true
		}
		before = append(before, m)
	}
}

// responseAfter awaits the response to the request with the given id and
// returns it with the lines that came before it.
func (s *session) responseAfter(id string) (message, []message, bool) {
	return s.await("response to request "+id, func(m message) bool {
		return m.isResponse() && string(m.ID) == id
	})
}

// response awaits the response to the request with the given id; any
// line before it is a failure.
func (s *session) response(id string) (message, bool) {
	m, before, ok := s.responseAfter(id)
	if ok {
		s.check(len(before) == 0, "%s before the response to request %s", plural(len(before), "unexpected line"), id)
	}
	return m, ok
}

// collect reads and returns the server lines that arrive within d.
func (s *session) collect(d time.Duration) []message {
	t := time.NewTimer(d)
	defer t.Stop()
	var got []message
	for {
		m, err := s.receive(t.C)
		if err != nil {
			return got
		}
		got = append(got, m)
	}
}

// drain reads server lines until EOF or until deadline fires (never when
// it is nil), and reports whether EOF was reached.
func (s *session) drain(deadline <-chan time.Time) bool {
	for {
		if _, err := s.receive(deadline); err != nil {
			return errors.Is(err, errEOF)
		}
	}
}

// result decodes a successful response's result into v; an error response
// or a result that does not decode is a failure (and false).
func (s *session) result(m message, v any) bool {
	if m.Error != nil {
		return s.check(false, "expected a result, got error %d: %s", m.Error.Code, m.Error.Message)
	}
	err := json.Unmarshal(m.Result, v)
	return s.check(err == nil, "the result does not decode: %v", err)
}

// expectError checks that m is an error response with code.
func (s *session) expectError(m message, code int, what string) {
	switch {
	case m.Error == nil:
		s.check(false, "%s: expected error %d, got a result", what, code)
	default:
		s.check(m.Error.Code == code, "%s: expected error %d, got %d (%s)", what, code, m.Error.Code, m.Error.Message)
	}
}

// message is one server line, decoded loosely.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`

	raw []byte // the line as read
}

// String is the line as read, cut for a failure message.
func (m message) String() string { return clip(m.raw, 120) }

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// decode decodes a server line; a line that is not a JSON object decodes
// to a message with only raw set, which matches nothing.
func decode(line []byte) message {
	var m message
	if json.Unmarshal(line, &m) != nil {
		return message{raw: line}
	}
	m.raw = line
	return m
}

// isResponse reports whether m is a response (it has no method).
func (m message) isResponse() bool {
	return m.Method == "" && (m.Result != nil || m.Error != nil)
}

// hasNoID reports whether m's id is absent or null, as for an error about
// a line whose id could not be read.
func (m message) hasNoID() bool {
	return len(m.ID) == 0 || string(m.ID) == "null"
}

// progress is the params of notifications/progress.
type progress struct {
	Token    json.RawMessage `json:"progressToken"`
	Progress float64         `json:"progress"`
	Total    float64         `json:"total"`
}

// progressFor returns m's progress when m is a progress notification for
// token (given as JSON).
func (m message) progressFor(token string) (progress, bool) {
	var p progress
	if m.Method != "notifications/progress" || json.Unmarshal(m.Params, &p) != nil {
		return p, false
	}
	return p, string(p.Token) == token
}

// afterFirstTool is where a tools/list line is cut: right after the entry
// of its first tool, before the rest of the page and its nextCursor (which
// is random per server process). It is 0 when line is not a tools/list
// result with a tool.
func afterFirstTool(line []byte) int {
	var m struct {
		Result struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"result"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.Result.Tools) == 0 {
		return 0
	}
	i := bytes.Index(line, m.Result.Tools[0])
	if i < 0 {
		return 0
	}
	return i + len(m.Result.Tools[0])
}

// jsonString encodes s as a JSON string.
func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // a Go string always encodes
	}
	return string(b)
}
