package golden

// HTTP transcripts replay Streamable HTTP exchanges against a server and
// compare what it answers (status, headers, body) with what they expect.
//
// An HTTP transcript is a text file: a prose header of # lines, an
// optional config section, then steps, each opened by a marker line:
//
//	# Prose saying what the transcript guards (any number of # lines).
//	-- config --
//	max-body-bytes=1024
//	# An exchange: the request (">" lines), then the response ("<" lines).
//	-- exchange --
//	> POST /mcp
//	> Accept: application/json, text/event-stream
//	> MCP-Protocol-Version: 2026-07-28
//	> Mcp-Method: tools/list
//	>
//	> {"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{...}}}
//	< 200
//	< Content-Type: application/json
//	< !Mcp-Session-Id
//	<
//	< {"jsonrpc":"2.0","id":1,"result":{...}}
//
// # The request
//
// The first ">" line is the method and the target (a path, resolved
// against the server's URL); header lines ("Name: value") follow, in
// order: a header given twice is sent twice, one not given is not sent. A
// ">" line alone ends the headers; the lines after it, joined with
// newlines, are the body (none: an empty body). Host sets the request's
// Host; "Transfer-Encoding: chunked" sends the body chunked, with no
// Content-Length. A body of one line "!pad N TEMPLATE" is TEMPLATE with
// @PAD@ replaced by N "x" bytes. Before a request is sent, every bound
// "$NAME" in its lines (method, headers, body) is replaced by its value.
// The client adds the headers net/http always sends (User-Agent,
// Accept-Encoding, Content-Length).
//
// The response headers are those net/http hands over, with one put back:
// "Connection: close", which net/http removes (reporting it as
// Response.Close).
//
// # The expected response
//
// The first "<" line is the status. Header lines follow: "< Name: value"
// wants the header present (names compare case-insensitively, values
// exactly; several values are joined with ", "), "< !Name" wants it
// absent, and headers not named are not checked. A "<" line alone ends
// the headers; the lines after it are the body, compared by the actual
// Content-Type:
//
//   - application/json: as JSON, key order ignored, with the placeholder
//     rule of stdio transcripts: an expected string "$NAME" matches any
//     string and binds NAME (or, once bound, matches its value only);
//   - text/event-stream: as events, each written as its field lines
//     ("id: 1", "event: message", "data: {json}", "retry: 1000") in order,
//     events separated by "<" lines alone; a data value that is JSON is
//     compared as JSON, other values as text; a whole value "$NAME" binds
//     as above; comment lines (": keep-alive") are skipped and may not be
//     expected;
//   - anything else: line by line, as text.
//
// No body lines expect an empty body (or a stream with no events). A
// header value that is exactly "$NAME" binds too, so that
// "< Mcp-Session-Id: $SESSION" names the session for later requests.
//
// # Streams
//
// A "-- exchange --" reads its response to the end: a stream must end
// after the expected events. "-- exchange NAME --" reads the expected
// events only and keeps the stream open under NAME (a legacy GET stream,
// subscriptions/listen) while later steps run (a response that is not a
// stream is read whole all the same); then:
//
//	-- read NAME --        "<" lines: the next events of NAME
//	-- end NAME --         "<" lines: the last events of NAME, then its end
//	-- close NAME --       the client closes NAME (disconnects)
//	-- sleep DURATION --   waits (time.ParseDuration: 300ms), for an expiry
//	-- shutdown --         calls HTTPTarget.Shutdown in the background; it
//	                       must return before the transcript ends
//
// A stream the client closes (with close, or at the end of the transcript,
// which closes every stream still open) may have had more events: they are
// not checked; end it with "-- end NAME --" to check that nothing more
// came.
//
// # Checks and revisions
//
// Every JSON-RPC message the server sends (a JSON body, the data of an
// event) goes to the Checker with the revision it belongs to: the
// request's params._meta "io.modelcontextprotocol/protocolVersion"; else
// the revision negotiated in the session its Mcp-Session-Id names (as the
// initialize response that minted it said); else, for an initialize
// response, the revision it gives; else the MCP-Protocol-Version request
// header; else "". Responses are checked as answers to the request of the
// same id: the exchange's own, or the last one sent in the same session.
//
// # Timing
//
// Every wait (for a response's head, its body, the next event, the end
// of a stream) is bounded by LineTimeout; nothing else depends on time
// but the sleep steps, which should leave generous margins. Steps run one
// at a time, and an exchange waits for its response's head, so a response
// that starts only after a later request cannot be transcribed.
//
// # Recording
//
// RecordHTTP runs the requests and records what the server answers; a
// stream left open (or read with "-- read --") is recorded until it falls
// quiet for QuietPeriod. An exchange may be written with no "<" lines, to
// be recorded (a replay reports it). Rewrite keeps every expected line
// that matched (so placeholders survive) and writes what came instead of
// the others: a new Mcp-Session-Id as $SESSION_<step>, a non-numeric event
// id as $EVENT_<step>_<event>, cursors and request states as
// $CURSOR_<step>_<event> and $STATE_<step>_<event> (as stdio transcripts
// do), <step> counting steps from 1 and <event> 1 for a JSON body. Each is
// bound at once, so that later requests of the same recording can send it
// back; rename them to say what they are as you read the recording. Date
// and Content-Length are not recorded. Prose lines (# and blank) before a
// marker stay with its step; a # or blank line inside a step is an error.

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// HTTPStepKind says what a step of an HTTP transcript does.
type HTTPStepKind string

// The kinds of HTTP transcript steps, as their markers name them.
const (
	// StepExchange sends a request and checks the response.
	StepExchange HTTPStepKind = "exchange"
	// StepRead checks the next events of an open stream.
	StepRead HTTPStepKind = "read"
	// StepEnd checks the last events of an open stream, then its end.
	StepEnd HTTPStepKind = "end"
	// StepClose closes an open stream from the client side.
	StepClose HTTPStepKind = "close"
	// StepSleep waits.
	StepSleep HTTPStepKind = "sleep"
	// StepShutdown shuts the server down in the background.
	StepShutdown HTTPStepKind = "shutdown"
)

// HTTPStep is one step of an HTTP transcript.
type HTTPStep struct {
	Kind     HTTPStepKind
	Stream   string        // the stream's name: of an exchange kept open, of read, end and close
	Sleep    time.Duration // how long a sleep step waits
	Line     int           // the line of the step's marker in the file
	Prose    []string      // the # and blank lines before the marker
	Request  []string      // an exchange's "> " lines, without the prefix ("" for ">" alone)
	Expected []string      // the "< " lines, without the prefix ("" for "<" alone)
}

// HTTPTranscript is a parsed HTTP golden file.
type HTTPTranscript struct {
	Path    string
	Header  []string          // prose and config lines, kept for rewriting
	Config  map[string]string // from the -- config -- section
	Steps   []HTTPStep
	Trailer []string // # and blank lines after the last step
}

// LoadHTTP reads and parses an HTTP transcript file.
func LoadHTTP(path string) (*HTTPTranscript, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseHTTP(path, data)
}

var streamName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// ParseHTTP parses an HTTP transcript; path names it in errors.
func ParseHTTP(path string, data []byte) (*HTTPTranscript, error) {
	t := &HTTPTranscript{Path: path, Config: map[string]string{}}
	section := "header"
	var pending []string // prose lines waiting for the next marker
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(data) == 0 {
		lines = nil
	}
	for i, line := range lines {
		n := i + 1
		errf := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", path, n, fmt.Sprintf(format, args...))
		}
		if inner, ok := markerOf(line); ok {
			if inner == "config" {
				if section != "header" {
					return nil, errf("the config section comes before every step")
				}
				section = "config"
				t.Header = append(t.Header, line)
				continue
			}
			st, err := parseMarker(inner)
			if err != nil {
				return nil, errf("%v", err)
			}
			st.Line, st.Prose, pending = n, pending, nil
			t.Steps = append(t.Steps, st)
			section = "steps"
			continue
		}
		switch section {
		case "header":
			t.Header = append(t.Header, line)
			continue
		case "config":
			t.Header = append(t.Header, line)
			if s := strings.TrimSpace(line); s != "" && !strings.HasPrefix(s, "#") {
				k, v, ok := strings.Cut(line, "=")
				if !ok {
					return nil, errf("config lines are key=value")
				}
				t.Config[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			continue
		}
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			pending = append(pending, line)
			continue
		}
		var prefix byte
		var rest string
		switch {
		case line == ">" || line == "<":
			prefix = line[0]
		case strings.HasPrefix(line, "> ") || strings.HasPrefix(line, "< "):
			prefix, rest = line[0], line[2:]
		default:
			return nil, errf(`step lines start with "> " or "< "`)
		}
		if len(pending) > 0 {
			return nil, errf("a # or blank line inside a step: put prose before the step's -- marker --")
		}
		st := &t.Steps[len(t.Steps)-1]
		switch {
		case prefix == '>' && st.Kind != StepExchange:
			return nil, errf("a %s step sends no request", st.Kind)
		case prefix == '>' && len(st.Expected) > 0:
			return nil, errf("a request line after the expected response")
		case prefix == '>':
			st.Request = append(st.Request, rest)
		case st.Kind != StepExchange && st.Kind != StepRead && st.Kind != StepEnd:
			return nil, errf("a %s step expects nothing", st.Kind)
		default:
			st.Expected = append(st.Expected, rest)
		}
	}
	t.Trailer = pending
	if len(t.Header) == 0 || !strings.HasPrefix(t.Header[0], "#") {
		return nil, fmt.Errorf("%s: a transcript starts with a prose header of # lines", path)
	}
	if err := t.validate(); err != nil {
		return nil, err
	}
	return t, nil
}

// markerOf returns the inside of a "-- ... --" marker line.
func markerOf(line string) (string, bool) {
	if len(line) < 6 || !strings.HasPrefix(line, "-- ") || !strings.HasSuffix(line, " --") {
		return "", false
	}
	return strings.TrimSpace(line[3 : len(line)-3]), true
}

// parseMarker reads a step marker's words.
func parseMarker(inner string) (HTTPStep, error) {
	f := strings.Fields(inner)
	var st HTTPStep
	if len(f) == 0 {
		return st, errors.New("an empty marker")
	}
	st.Kind = HTTPStepKind(f[0])
	switch st.Kind {
	case StepExchange:
		if len(f) > 2 {
			return st, errors.New("-- exchange [NAME] -- takes at most a stream name")
		}
		if len(f) == 2 {
			st.Stream = f[1]
		}
	case StepRead, StepEnd, StepClose:
		if len(f) != 2 {
			return st, fmt.Errorf("-- %s NAME -- takes a stream name", st.Kind)
		}
		st.Stream = f[1]
	case StepSleep:
		if len(f) != 2 {
			return st, errors.New("-- sleep DURATION -- takes a duration such as 300ms")
		}
		d, err := time.ParseDuration(f[1])
		if err != nil || d < 0 {
			return st, fmt.Errorf("-- sleep %s --: not a duration such as 300ms", f[1])
		}
		st.Sleep = d
	case StepShutdown:
		if len(f) != 1 {
			return st, errors.New("-- shutdown -- takes nothing")
		}
	default:
		return st, fmt.Errorf("unknown step %q (exchange, read, end, close, sleep, shutdown)", f[0])
	}
	if st.Stream != "" && !streamName.MatchString(st.Stream) {
		return st, fmt.Errorf("stream name %q: letters, digits, _ and - only", st.Stream)
	}
	return st, nil
}

// validate checks every step's lines and the streams they name.
func (t *HTTPTranscript) validate() error {
	open := map[string]bool{}
	for _, st := range t.Steps {
		errf := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", t.Path, st.Line, fmt.Sprintf(format, args...))
		}
		switch st.Kind {
		case StepExchange:
			if _, err := parseHTTPRequest(st.Request); err != nil {
				return errf("%v", err)
			}
			if _, err := parseHTTPExpect(st.Expected); err != nil {
				return errf("%v", err)
			}
			if st.Stream != "" {
				if open[st.Stream] {
					return errf("stream %s is open already", st.Stream)
				}
				open[st.Stream] = true
			}
		case StepRead, StepEnd, StepClose:
			if !open[st.Stream] {
				return errf("no open stream %s (open one with -- exchange %s --)", st.Stream, st.Stream)
			}
			if _, err := parseEvents(st.Expected); err != nil {
				return errf("%v", err)
			}
			if st.Kind != StepRead {
				delete(open, st.Stream)
			}
		}
	}
	return nil
}

// Format renders the transcript back to its file form.
func (t *HTTPTranscript) Format() string {
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	prefixed := func(p, s string) {
		if s == "" {
			line(p)
		} else {
			line(p + " " + s)
		}
	}
	for _, h := range t.Header {
		line(h)
	}
	for _, st := range t.Steps {
		for _, p := range st.Prose {
			line(p)
		}
		line(st.marker())
		for _, r := range st.Request {
			prefixed(">", r)
		}
		for _, e := range st.Expected {
			prefixed("<", e)
		}
	}
	for _, p := range t.Trailer {
		line(p)
	}
	return b.String()
}

func (st HTTPStep) marker() string {
	words := []string{string(st.Kind)}
	switch st.Kind {
	case StepSleep:
		words = append(words, st.Sleep.String())
	default:
		if st.Stream != "" {
			words = append(words, st.Stream)
		}
	}
	return "-- " + strings.Join(words, " ") + " --"
}

// httpRequest is an exchange's request.
type httpRequest struct {
	method, target string
	headers        [][2]string
	body           string
}

func parseHTTPRequest(lines []string) (*httpRequest, error) {
	if len(lines) == 0 {
		return nil, errors.New(`an exchange begins with a request line "> METHOD /path"`)
	}
	f := strings.Fields(lines[0])
	if len(f) != 2 || !strings.HasPrefix(f[1], "/") {
		return nil, fmt.Errorf("request line %q: want METHOD /path", lines[0])
	}
	r := &httpRequest{method: f[0], target: f[1]}
	i := 1
	for ; i < len(lines) && lines[i] != ""; i++ {
		k, v, ok := strings.Cut(lines[i], ":")
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return nil, fmt.Errorf("request header %q: want Name: value", lines[i])
		}
		r.headers = append(r.headers, [2]string{k, strings.TrimPrefix(v, " ")})
	}
	if i < len(lines) {
		r.body = strings.Join(lines[i+1:], "\n")
	}
	return r, nil
}

// headerExpect is one expected header line.
type headerExpect struct {
	name, value string
	absent      bool
	raw         string
}

// httpExpect is an exchange's expected response; status is 0 when the
// transcript expects nothing yet (a request written to be recorded).
type httpExpect struct {
	status  int
	headers []headerExpect
	body    []string
}

func parseHTTPExpect(lines []string) (*httpExpect, error) {
	e := &httpExpect{}
	if len(lines) == 0 {
		return e, nil
	}
	st, err := strconv.Atoi(lines[0])
	if err != nil || st < 100 || st > 999 {
		return nil, fmt.Errorf("expected status %q: want a number such as 200", lines[0])
	}
	e.status = st
	i := 1
	for ; i < len(lines) && lines[i] != ""; i++ {
		l := lines[i]
		if name, ok := strings.CutPrefix(l, "!"); ok {
			if name == "" || strings.ContainsAny(name, " \t:") {
				return nil, fmt.Errorf("expected header %q: want !Name", l)
			}
			e.headers = append(e.headers, headerExpect{name: name, absent: true, raw: l})
			continue
		}
		k, v, ok := strings.Cut(l, ":")
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return nil, fmt.Errorf("expected header %q: want Name: value or !Name", l)
		}
		e.headers = append(e.headers, headerExpect{name: k, value: strings.TrimPrefix(v, " "), raw: l})
	}
	if i < len(lines) {
		e.body = lines[i+1:]
	}
	return e, nil
}

// sseField is one field line of an event.
type sseField struct {
	name, value string
	raw         string // the line as written (expected side)
}

// sseEvent is one event: its fields in order.
type sseEvent struct {
	fields  []sseField
	partial bool // the stream ended before the blank line ending it
}

func parseField(line string) sseField {
	name, value, _ := strings.Cut(line, ":")
	return sseField{name: name, value: strings.TrimPrefix(value, " "), raw: line}
}

// parseEvents reads expected event lines: blank lines separate events.
func parseEvents(lines []string) ([]sseEvent, error) {
	var out []sseEvent
	var ev sseEvent
	for _, l := range lines {
		switch {
		case l == "":
			if len(ev.fields) > 0 {
				out = append(out, ev)
			}
			ev = sseEvent{}
		case strings.HasPrefix(l, ":"):
			return nil, fmt.Errorf("expected event line %q: comments are skipped, not expected", l)
		default:
			ev.fields = append(ev.fields, parseField(l))
		}
	}
	if len(ev.fields) > 0 {
		out = append(out, ev)
	}
	return out, nil
}
