package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"
)

// responseTimeout bounds every wait for a server line, so the demo cannot
// hang.
const responseTimeout = 5 * time.Second

// serverArgs start the server with its fault fixtures (the demo shows a
// panicking handler answered with -32603) and a small page size, so that
// tools/list takes several pages.
var serverArgs = []string{"-fixtures", "-page-size", "3"}

// errTimeout and errEOF are why a wait for a server line ended without one.
var (
	errTimeout = errors.New("timed out")
	errEOF     = errors.New("the server closed its stdout")
)

// step is one part of the scripted session.
type step struct {
	caption string
	run     func(*session)
}

// steps is the scripted session, in order (see steps.go).
var steps = []step{
	{"Handshake: initialize at 2025-11-25, then notifications/initialized", (*session).handshake},
	{"tools/list, following nextCursor across every page", (*session).listTools},
	{"Tool calls: echo (Unicode round trip), add (structuredContent), slow (progress before the result)", (*session).callTools},
	{"One error of each class, each answered while the server keeps serving", (*session).errorClasses},
	{"Cancellation: a slow call cancelled mid-way is never answered", (*session).cancellation},
	{"Shutdown: closing stdin makes the server exit", (*session).shutdown},
}

// session drives one server through the steps. It is not safe for
// concurrent use.
type session struct {
	p       *printer
	srv     *server
	timeout time.Duration
	nextID  int

	checks, failures int
	cancelled        map[string]bool // ids whose response must never arrive
	answeredCancel   bool            // a response for a cancelled id arrived
	eof              bool            // the server's stdout has ended
	gone             string          // why the script cannot go on, once it cannot
	exited           bool            // the server process has been waited for
}

// runSession starts the server binary at bin, runs every step against it,
// printing to out (with colour when color is true), and returns an error
// when any check failed.
func runSession(bin string, out io.Writer, color bool) error {
	return runSessionTimeout(bin, out, color, responseTimeout)
}

// runSessionTimeout is runSession with every wait for a server line
// bounded by timeout.
func runSessionTimeout(bin string, out io.Writer, color bool, timeout time.Duration) error {
	p := newPrinter(out, color)
	srv, err := startServer(bin, serverArgs...)
	if err != nil {
		p.fail("starting the server: %v", err)
		return err
	}
	s := &session{p: p, srv: srv, timeout: timeout, cancelled: map[string]bool{}}
	p.note("started cmd/everything %s (pid %d); each response is awaited at most %s",
		strings.Join(serverArgs, " "), srv.cmd.Process.Pid, s.timeout)
	for i, st := range steps {
		p.step(i+1, st.caption)
		if s.gone != "" && i < len(steps)-1 {
			p.note("skipped: %s", s.gone)
			continue
		}
		st.run(s)
	}
	if !s.exited { // a step went wrong before shutdown could finish
		s.srv.kill()
		s.drain(nil)
		<-s.srv.exited
	}
	p.stderr(srv.stderr.Bytes(), 30)
	p.plain("")
	if s.failures > 0 {
		p.fail("demo failed: %d of %d checks did not hold", s.failures, s.checks)
		return fmt.Errorf("%d of %d checks failed", s.failures, s.checks)
	}
	p.ok("demo passed: all %d checks held", s.checks)
	return nil
}

// ok records and prints a check that held.
func (s *session) ok(format string, args ...any) {
	s.checks++
	s.p.ok(format, args...)
}

// fail records and prints a check that did not hold.
func (s *session) fail(format string, args ...any) {
	s.checks++
	s.failures++
	s.p.fail(format, args...)
}

// send writes one line to the server and prints it; once the script cannot
// go on it does nothing.
func (s *session) send(line string) {
	if s.gone != "" {
		return
	}
	s.p.client([]byte(line))
	if err := s.srv.write([]byte(line)); err != nil {
		s.fail("writing to the server's stdin: %v", err)
		s.gone = "the server's stdin is closed"
	}
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
		m := decode(line)
		s.p.server(line, m.Error != nil)
		if m.isResponse() && s.cancelled[string(m.ID)] {
			s.answeredCancel = true
			s.fail("a response arrived for the cancelled request id %s", m.ID)
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
			s.fail("no %s within %s", what, s.timeout)
			s.gone = "the server stopped answering"
			return message{}, before, false
		case err != nil:
			s.fail("%v while waiting for %s", err, what)
			s.gone = err.Error()
			return message{}, before, false
		case match(m):
			return m, before, true
		}
		before = append(before, m)
	}
}

// response awaits the response to the request with the given id.
func (s *session) response(id string) (message, []message, bool) {
	return s.await("response to id "+id, func(m message) bool {
		return m.isResponse() && string(m.ID) == id
	})
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

// drain reads server lines until EOF or until deadline fires, and reports
// whether EOF was reached.
func (s *session) drain(deadline <-chan time.Time) bool {
	for {
		if _, err := s.receive(deadline); err != nil {
			return errors.Is(err, errEOF)
		}
	}
}

// result decodes a successful response's result into v, recording a
// failure (and returning false) for an error response or a result that
// does not decode.
func (s *session) result(m message, v any) bool {
	if m.Error != nil {
		s.fail("expected a result, got error %d: %s", m.Error.Code, m.Error.Message)
		return false
	}
	if err := json.Unmarshal(m.Result, v); err != nil {
		s.fail("the result does not decode: %v", err)
		return false
	}
	return true
}

// expectError checks that m is an error response with code.
func (s *session) expectError(m message, code int, what string) {
	switch {
	case m.Error == nil:
		s.fail("%s: expected error %d, got a result", what, code)
	case m.Error.Code != code:
		s.fail("%s: expected error %d, got %d (%s)", what, code, m.Error.Code, m.Error.Message)
	default:
		s.ok("%s → %d %q", what, code, m.Error.Message)
	}
}

// message is one server line, decoded loosely.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// decode decodes a server line; a line that is not a JSON object decodes
// to the zero message, which matches nothing.
func decode(line []byte) message {
	var m message
	if json.Unmarshal(line, &m) != nil {
		return message{}
	}
	return m
}

// isResponse reports whether m is a response (it has no method).
func (m message) isResponse() bool {
	return m.Method == "" && (m.Result != nil || m.Error != nil)
}

// progress is the params of notifications/progress.
type progress struct {
	Token    json.RawMessage `json:"progressToken"`
	Progress float64         `json:"progress"`
	Total    float64         `json:"total"`
	Message  string          `json:"message"`
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

// progressFor returns the progress notifications for token among msgs.
func progressFor(msgs []message, token string) []progress {
	var out []progress
	for _, m := range msgs {
		if p, ok := m.progressFor(token); ok {
			out = append(out, p)
		}
	}
	return out
}

// jsonString encodes s as a JSON string.
func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // a Go string always encodes
	}
	return string(b)
}
