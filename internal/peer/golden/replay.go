package golden

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpwire/mcpwire/protocol"
)

// LineTimeout is how long the harness waits for one expected server line.
var LineTimeout = 15 * time.Second

// Checker validates one server line; rev is the negotiated protocol version
// ("" before initialize) and methodOf returns the method of the request with
// a given id (its JSON text), "" when there was none.
type Checker func(rev string, methodOf func(id []byte) string, line []byte) error

// QuietPeriod is how long Record waits for more server lines after a
// step while the server owes a response (see SettlePeriod).
var QuietPeriod = 400 * time.Millisecond

// Outcome is what a replay saw.
type Outcome struct {
	Actual   [][]string // server lines per step
	Problems []string   // mismatches, schema failures and protocol faults
	// Faults are the Problems again, one for one, each with the
	// transcript line it is about, for a report that points at the line.
	Faults  []Fault
	matched map[[2]int]bool
	// serverIDs maps an expected server request's id (JSON text) to the
	// server's (Options.ServerIDs).
	serverIDs map[string]serverID
}

// Fault is one of an Outcome's Problems with where it stands.
type Fault struct {
	// Line is the transcript line the fault is about: the expected "< "
	// line that differs or did not come, or the client line of the step
	// (a line that could not be sent, a line no step expected of a
	// recording); 0 for a fault of no one line (one after the last step,
	// a bad option).
	Line int
	// Msg says what is wrong, without the location.
	Msg string
}

// fault records a problem: text as Problems has it, and its Fault.
func (o *Outcome) fault(text string, line int, msg string) {
	o.Problems = append(o.Problems, text)
	o.Faults = append(o.Faults, Fault{Line: line, Msg: msg})
}

// Rewrite returns the transcript with its expectations replaced by what the
// server wrote, keeping each expected line that matched (so placeholders
// survive).
func (o *Outcome) Rewrite(tr *Transcript) *Transcript {
	out := *tr
	out.Steps = make([]Step, len(tr.Steps))
	for i, st := range tr.Steps {
		st.Expected, st.ExpectedLines = nil, nil
		for j, a := range o.Actual[i] {
			if o.matched[[2]int{i, j}] {
				a = tr.Steps[i].Expected[j]
			} else {
				a = cursorValue.ReplaceAllString(a, fmt.Sprintf(`"nextCursor":"$$CURSOR_%d_%d"`, i+1, j+1))
				a = stateValue.ReplaceAllString(a, fmt.Sprintf(`"requestState":"$$STATE_%d_%d"`, i+1, j+1))
			}
			st.Expected = append(st.Expected, a)
		}
		out.Steps[i] = st
	}
	o.rewriteClientIDs(&out)
	return &out
}

// Record runs the transcript's client lines against p and records whatever
// the server writes after each, until the step is over by the rule
// SettlePeriod states; it is how
// "go test -update" rewrites transcripts. A recording reports no
// differences, only what check finds in the lines recorded (and a client
// line that could not be sent).
func Record(tr *Transcript, p *Peer, check Checker) *Outcome {
	return run(tr, p, Options{Check: check}, true)
}

// Replay runs the transcript against p: after each client line it expects
// exactly the transcript's server lines, and after the last one it expects
// the server's output to end. The response of a long-lived request
// (longLived) is the exception: it matches wherever it comes.
func Replay(tr *Transcript, p *Peer, check Checker) *Outcome {
	return run(tr, p, Options{Check: check}, false)
}

// run drives the steps; record reads what comes instead of what is expected.
func run(tr *Transcript, p *Peer, opts Options, record bool) *Outcome {
	o := &Outcome{Actual: make([][]string, len(tr.Steps)), matched: map[[2]int]bool{}}
	r := replayer{tr: tr, p: p, check: opts.Check, opts: opts, o: o,
		binds: map[string]string{}, methods: map[string]string{}, modern: map[string]string{},
		owed: map[string]bool{}}
	if err := r.compileVolatile(); err != nil {
		o.fault(err.Error(), 0, err.Error())
		return o
	}
	if !record {
		r.findFloating()
	}
	closed := false
	for i, st := range tr.Steps {
		if d, ok, err := sleepDirective(st.Client); ok {
			if err != nil {
				o.fault(fmt.Sprintf("line %d: %v", st.Line, err), st.Line, err.Error())
				return o
			}
			time.Sleep(d)
		} else if st.Client == "!close" {
			closed = true
			p.CloseInput()
		} else if err := r.send(st); err != nil {
			o.fault(fmt.Sprintf("line %d: %v", st.Line, err), st.Line, "sending the client line: "+err.Error())
			return o
		}
		if record {
			r.recordStep(i, st, closed)
		} else if !r.expectStep(i, st) {
			return o
		}
	}
	if !closed {
		p.CloseInput()
	}
	if !record {
		r.expectEnd()
	}
	return o
}

// sleepDirective reads a "!sleep DURATION" client line: ok reports whether
// client is one, and err a duration that does not parse or is negative.
func sleepDirective(client string) (d time.Duration, ok bool, err error) {
	rest, ok := strings.CutPrefix(client, "!sleep ")
	if !ok {
		return 0, false, nil
	}
	d, err = time.ParseDuration(strings.TrimSpace(rest))
	if err == nil && d < 0 {
		err = fmt.Errorf("!sleep %s: the duration is negative", rest)
	} else if err != nil {
		err = fmt.Errorf("!sleep needs a duration such as 300ms: %v", err)
	}
	return d, true, err
}

// recordStep keeps every line the server writes until the step is over
// (quietWindow), noting which ones match the old expectations, and checks
// each; closing says a !close was sent.
func (r *replayer) recordStep(i int, st Step, closing bool) {
	for j := 0; ; j++ {
		line, err := r.p.ReadLine(r.quietWindow(closing))
		if err != nil {
			return
		}
		line = strings.TrimSuffix(line, "\n")
		r.serverSent(line)
		r.o.Actual[i] = append(r.o.Actual[i], line)
		at := st.Line
		if j < len(st.Expected) {
			at = st.expectedLine(j)
			n := len(r.o.Problems)
			r.diff(i, j, st.Line, at, st.Expected[j], line)
			r.o.Problems, r.o.Faults = r.o.Problems[:n], r.o.Faults[:n] // a recording reports no difference
		}
		r.inspect(st.Line, at, line)
	}
}

// expectStep reads and compares the step's expected lines; it reports
// false when the server stopped answering.
func (r *replayer) expectStep(i int, st Step) bool {
	for j, exp := range st.Expected {
		if r.floating[[2]int{i, j}] {
			continue
		}
		line, err := r.p.ReadLine(LineTimeout)
		for err == nil && r.takeFloating(strings.TrimSuffix(line, "\n")) {
			line, err = r.p.ReadLine(LineTimeout)
		}
		if err != nil {
			r.o.fault(fmt.Sprintf("line %d: expected server line %d: %v", st.Line, j+1, err), st.expectedLine(j),
				fmt.Sprintf("expected server line %d of the step at line %d: %v", j+1, st.Line, err))
			return false
		}
		line = strings.TrimSuffix(line, "\n")
		r.o.Actual[i] = append(r.o.Actual[i], line)
		r.diff(i, j, st.Line, st.expectedLine(j), exp, line)
		r.inspect(st.Line, st.expectedLine(j), line)
	}
	return true
}

// expectEnd reads to the end of the server's output: any line left is a
// line no step expected, but for the response of a long-lived request,
// which is reported when it never came.
func (r *replayer) expectEnd() {
	defer r.missingFloating()
	for {
		line, err := r.p.ReadLine(LineTimeout)
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			msg := fmt.Sprintf("after the last step: %v (the server did not exit)", err)
			r.o.fault(msg, 0, msg)
			return
		}
		if r.takeFloating(strings.TrimSuffix(line, "\n")) {
			continue
		}
		last := len(r.tr.Steps) - 1
		r.o.Actual[last] = append(r.o.Actual[last], strings.TrimSuffix(line, "\n"))
		msg := fmt.Sprintf("unexpected server line after the last step: %s", line)
		r.o.fault(msg, 0, strings.TrimSuffix(msg, "\n"))
	}
}

type replayer struct {
	tr      *Transcript
	p       *Peer
	check   Checker
	opts    Options
	o       *Outcome
	binds   map[string]string
	methods map[string]string // request id key -> method
	modern  map[string]string // request id key -> declared modern version
	rev     string            // the legacy session's revision
	// lastModern is the declared version of the last request sent, "" if
	// it was a legacy request.
	lastModern string
	volatile   [][]string // Options.Volatile, split into reference tokens
	// floats are the expected responses of long-lived requests not yet
	// matched, by id, as step and line indexes; floating marks them all.
	floats   map[string][][2]int
	floating map[[2]int]bool
	// owed are the ids of the requests sent and not yet answered (but
	// long-lived ones): Record's quietWindow reads them.
	owed map[string]bool
}

var placeholder = regexp.MustCompile(`\$[A-Z][A-Z0-9_]*`)

// cursorValue finds a literal cursor in a recorded line; cursors are random
// per process, so rewritten transcripts name them with placeholders.
var cursorValue = regexp.MustCompile(`"nextCursor":"[^"$][^"]*"`)

// stateValue finds a literal requestState in a recorded line; a state is
// sealed with a random nonce (and a per-process key), so rewritten
// transcripts name it with a placeholder too.
var stateValue = regexp.MustCompile(`"requestState":"[^"$][^"]*"`)

// send writes one client line after expanding directives and placeholders.
func (r *replayer) send(st Step) error {
	line := placeholder.ReplaceAllStringFunc(st.Client, func(name string) string {
		if v, ok := r.binds[name]; ok {
			return v
		}
		return name
	})
	if rest, ok := strings.CutPrefix(line, "!pad "); ok {
		nStr, tmpl, _ := strings.Cut(rest, " ")
		n, err := strconv.Atoi(nStr)
		if err != nil {
			return fmt.Errorf("!pad needs a byte count: %v", err)
		}
		line = strings.Replace(tmpl, "@PAD@", strings.Repeat("x", n), 1)
	}
	line = r.mapClientID(line)
	r.noteMethods([]byte(line))
	r.clientSent(line)
	return r.p.WriteLine(line)
}

// noteMethods remembers the method and era of every request in a client
// line (a single message or a batch).
func (r *replayer) noteMethods(line []byte) {
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) == nil {
		for _, m := range batch {
			r.noteMethods(m)
		}
		return
	}
	var env requestEnvelope
	if json.Unmarshal(line, &env) != nil || env.Method == "" {
		return
	}
	version := env.modernVersion()
	r.lastModern = version
	if env.ID != nil {
		r.methods[string(env.ID)] = env.Method
		r.modern[string(env.ID)] = version
	}
}

// modernVersionKey marks a modern (stateless) request.
const modernVersionKey = "io.modelcontextprotocol/protocolVersion"

// requestEnvelope is what the harness reads of a request message: its id,
// its method and its params' _meta.
type requestEnvelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	} `json:"params"`
}

// modernVersion returns the protocol version a modern request declares in
// its _meta (under modernVersionKey), or "".
func (e *requestEnvelope) modernVersion() string {
	var v string
	if raw, ok := e.Params.Meta[modernVersionKey]; ok {
		json.Unmarshal(raw, &v)
	}
	return v
}

// revOf returns the protocol revision a server line belongs to: the
// declared version of the modern request it answers or follows, or else the
// legacy session's.
func (r *replayer) revOf(msg any) string {
	m, _ := msg.(map[string]any)
	if id, ok := m["id"]; ok {
		b, _ := json.Marshal(id)
		if v := r.modern[string(b)]; v != "" {
			return v
		}
		return r.rev
	}
	if p, ok := m["params"].(map[string]any); ok {
		if meta, ok := p["_meta"].(map[string]any); ok {
			if _, ok := meta["io.modelcontextprotocol/subscriptionId"]; ok {
				return protocol.Revision20260728.String()
			}
		}
	}
	if r.lastModern != "" {
		return r.lastModern
	}
	return r.rev
}

// diff matches one server line against its expectation, the one at file
// line at of the step whose client line is lineNo, and notes a match.
func (r *replayer) diff(step, idx, lineNo, at int, expected, actual string) {
	n := len(r.o.Problems)
	defer func() {
		if len(r.o.Problems) == n {
			r.o.matched[[2]int{step, idx}] = true
		}
	}()
	var exp, act any
	if err := unmarshal(expected, &exp); err != nil {
		if r.opts.Text {
			if expected != actual {
				r.problem(lineNo, at, "server line differs (-want +got):\n%s", cmp.Diff(expected, actual))
			}
			return
		}
		r.problem(lineNo, at, "expected line is not JSON: %v", err)
		return
	}
	if err := unmarshal(actual, &act); err != nil {
		r.problem(lineNo, at, "server line is not JSON: %v\n%s", err, actual)
		return
	}
	exp = r.mapServerID(step, idx, exp, act)
	exp = r.bind(exp, act)
	exp = r.normalise(exp, act)
	if d := cmp.Diff(exp, act); d != "" {
		r.problem(lineNo, at, "server line differs (-want +got):\n%s", d)
	}
}

// inspect follows the session through a server line (the revision an
// initialize result negotiates) and checks it against the protocol schema;
// a line that is not JSON is diff's to report.
func (r *replayer) inspect(lineNo, at int, actual string) {
	var act any
	if unmarshal(actual, &act) != nil {
		return
	}
	method := r.methodOf(act)
	if method == "initialize" {
		if m, ok := act.(map[string]any); ok {
			if res, ok := m["result"].(map[string]any); ok {
				r.rev, _ = res["protocolVersion"].(string)
			}
		}
	}
	if r.check != nil {
		methodOf := func(id []byte) string { return r.methods[string(id)] }
		rev := r.revOf(act)
		if err := r.check(rev, methodOf, []byte(actual)); err != nil {
			r.problem(lineNo, at, "line check (%s, %s): %v\n%s", rev, method, err, actual)
		}
	}
}

// methodOf returns the method of the request a response answers.
func (r *replayer) methodOf(msg any) string {
	m, ok := msg.(map[string]any)
	if !ok {
		if arr, ok := msg.([]any); ok && len(arr) > 0 {
			return "batch"
		}
		return ""
	}
	if id, ok := m["id"]; ok {
		b, _ := json.Marshal(id)
		return r.methods[string(b)]
	}
	return ""
}

// bind replaces placeholders in exp with the matching values of act,
// binding each name on first use.
func (r *replayer) bind(exp, act any) any {
	switch e := exp.(type) {
	case string:
		if placeholder.MatchString(e) && placeholder.FindString(e) == e {
			a, ok := act.(string)
			if !ok {
				return e
			}
			if v, bound := r.binds[e]; bound {
				return v
			}
			r.binds[e] = a
			return a
		}
	case map[string]any:
		a, _ := act.(map[string]any)
		out := make(map[string]any, len(e))
		for k, v := range e {
			out[k] = r.bind(v, a[k])
		}
		return out
	case []any:
		a, _ := act.([]any)
		out := make([]any, len(e))
		for i, v := range e {
			var av any
			if i < len(a) {
				av = a[i]
			}
			out[i] = r.bind(v, av)
		}
		return out
	}
	return exp
}

// problem records a fault of the step whose client line is lineNo, about
// the transcript line at.
func (r *replayer) problem(lineNo, at int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.o.fault(fmt.Sprintf("step at line %d: ", lineNo)+msg, at, msg)
}

// unmarshal decodes JSON keeping numbers exact.
func unmarshal(s string, v *any) error {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	return dec.Decode(v)
}
