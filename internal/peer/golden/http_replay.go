package golden

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"
)

// HTTPTarget is the server an HTTP transcript runs against.
type HTTPTarget struct {
	URL      string       // the server's base URL, such as httptest.Server's
	Client   *http.Client // the client that sends the requests
	Shutdown func()       // what "-- shutdown --" calls; nil refuses the step
}

// HTTPOutcome is what an HTTP replay or recording saw.
type HTTPOutcome struct {
	Problems []string   // mismatches, schema failures and transport faults
	recorded [][]string // per step, the expected lines as recorded
}

// Rewrite returns tr with the expectations of its steps replaced by what
// RecordHTTP recorded (see the file format's Recording).
func (o *HTTPOutcome) Rewrite(tr *HTTPTranscript) *HTTPTranscript {
	out := *tr
	out.Steps = slices.Clone(tr.Steps)
	for i := range out.Steps {
		if i < len(o.recorded) && o.recorded[i] != nil {
			out.Steps[i].Expected = o.recorded[i]
		}
	}
	return &out
}

// ReplayHTTP runs tr against target and checks every response against
// its expectation and every JSON-RPC message with check (nil: none).
func ReplayHTTP(tr *HTTPTranscript, target HTTPTarget, check Checker) *HTTPOutcome {
	return runHTTP(tr, target, check, false)
}

// RecordHTTP runs tr's requests against target and records the
// responses, for Rewrite; it is how "go test -update" rewrites HTTP
// transcripts. Mismatches are not problems; transport faults are.
func RecordHTTP(tr *HTTPTranscript, target HTTPTarget) *HTTPOutcome {
	return runHTTP(tr, target, nil, true)
}

// httpRun is one run of a transcript.
type httpRun struct {
	tr       *HTTPTranscript
	target   HTTPTarget
	check    Checker
	record   bool
	o        *HTTPOutcome
	binds    map[string]string
	streams  map[string]*respStream
	sessions map[string]string // session id -> negotiated revision
	methods  map[string]string // session id + "\x00" + request id -> method
	shutdown chan struct{}     // closed when Shutdown returned; nil before
	step     int               // the step being run, from 1
	line     int               // its marker's line
}

func runHTTP(tr *HTTPTranscript, target HTTPTarget, check Checker, record bool) *HTTPOutcome {
	o := &HTTPOutcome{recorded: make([][]string, len(tr.Steps))}
	r := &httpRun{tr: tr, target: target, check: check, record: record, o: o,
		binds: map[string]string{}, streams: map[string]*respStream{},
		sessions: map[string]string{}, methods: map[string]string{}}
	defer r.finish()
	for i, st := range tr.Steps {
		r.step, r.line = i+1, st.Line
		if !r.run(i, st) {
			break
		}
	}
	return o
}

// finish closes the streams still open and waits for a shutdown begun.
func (r *httpRun) finish() {
	for name, s := range r.streams {
		s.close()
		delete(r.streams, name)
	}
	if r.shutdown != nil {
		select {
		case <-r.shutdown:
		case <-time.After(LineTimeout):
			r.o.Problems = append(r.o.Problems, fmt.Sprintf("the shutdown begun at line %d did not finish within %v", r.line, LineTimeout))
		}
	}
}

// problem notes a mismatch (not while recording).
func (r *httpRun) problem(format string, args ...any) {
	if !r.record {
		r.fault(format, args...)
	}
}

// fault notes a problem that recording reports too.
func (r *httpRun) fault(format string, args ...any) {
	r.o.Problems = append(r.o.Problems, fmt.Sprintf("step at line %d: ", r.line)+fmt.Sprintf(format, args...))
}

// run runs one step; false stops the transcript.
func (r *httpRun) run(i int, st HTTPStep) bool {
	switch st.Kind {
	case StepSleep:
		time.Sleep(st.Sleep)
	case StepShutdown:
		if r.target.Shutdown == nil || r.shutdown != nil {
			r.fault("no shutdown to call (none given, or one begun already)")
			return false
		}
		done := make(chan struct{})
		r.shutdown = done
		go func() {
			defer close(done)
			r.target.Shutdown()
		}()
	case StepClose:
		s := r.streams[st.Stream]
		delete(r.streams, st.Stream)
		s.close()
	case StepRead, StepEnd:
		s := r.streams[st.Stream]
		exp, _ := parseEvents(st.Expected) // validated at load
		end := st.Kind == StepEnd
		if end {
			delete(r.streams, st.Stream)
			defer s.close()
		}
		rec := r.matchEvents(s, exp, end)
		if r.record {
			r.o.recorded[i] = append([]string{}, rec...) // none recorded is not nil
		}
	case StepExchange:
		return r.exchange(i, st)
	}
	return true
}

// expand replaces the bound placeholders in a request line.
func (r *httpRun) expand(line string) string {
	return placeholder.ReplaceAllStringFunc(line, func(name string) string {
		if v, ok := r.binds[name]; ok {
			return v
		}
		return name
	})
}

// requestInfo is what the harness reads from a request body.
type requestInfo struct {
	id, method, version string
	batch               map[string]string // a batch's request ids (compact JSON) → methods
}

func readRequestInfo(body string) requestInfo {
	if t := strings.TrimSpace(body); strings.HasPrefix(t, "[") {
		var items []json.RawMessage
		info := requestInfo{batch: map[string]string{}}
		if json.Unmarshal([]byte(t), &items) == nil {
			for _, item := range items {
				if m := readRequestInfo(string(item)); m.id != "" {
					info.batch[m.id] = m.method
				}
			}
		}
		return info
	}
	var env requestEnvelope
	var info requestInfo
	if json.Unmarshal([]byte(body), &env) != nil {
		return info
	}
	info.method = env.Method
	if len(env.ID) > 0 && string(env.ID) != "null" {
		info.id = compactJSON(env.ID)
	}
	info.version = env.modernVersion()
	return info
}

func compactJSON(b []byte) string {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return string(b)
	}
	return out.String()
}

// exchange sends a request and checks its response.
func (r *httpRun) exchange(i int, st HTTPStep) bool {
	lines := make([]string, len(st.Request))
	for j, l := range st.Request {
		lines[j] = r.expand(l)
	}
	req, err := parseHTTPRequest(lines)
	if err != nil {
		r.fault("%v", err)
		return false
	}
	exp, _ := parseHTTPExpect(st.Expected) // validated at load
	if !r.record && exp.status == 0 {
		r.problem("no expected response: write one, or record it with -update")
	}
	body := req.body
	if rest, ok := strings.CutPrefix(body, "!pad "); ok && !strings.Contains(body, "\n") {
		nStr, tmpl, _ := strings.Cut(rest, " ")
		n, err := strconv.Atoi(nStr)
		if err != nil || n < 0 {
			r.fault("!pad needs a byte count: %q", nStr)
			return false
		}
		body = strings.Replace(tmpl, "@PAD@", strings.Repeat("x", n), 1)
	}
	info := readRequestInfo(body)

	ctx, cancel := context.WithCancel(context.Background())
	var rd io.Reader
	if body != "" || req.method == http.MethodPost || req.method == http.MethodPut {
		rd = strings.NewReader(body)
	}
	hreq, err := http.NewRequestWithContext(ctx, req.method, r.target.URL+req.target, rd)
	if err != nil {
		cancel()
		r.fault("building the request: %v", err)
		return false
	}
	for _, h := range req.headers {
		switch http.CanonicalHeaderKey(h[0]) {
		case "Host":
			hreq.Host = h[1]
		case "Transfer-Encoding":
			if !strings.EqualFold(h[1], "chunked") {
				cancel()
				r.fault("Transfer-Encoding: only chunked is supported")
				return false
			}
			hreq.Body = io.NopCloser(strings.NewReader(body))
			hreq.ContentLength = -1
			hreq.GetBody = nil
			hreq.TransferEncoding = []string{"chunked"}
		default:
			hreq.Header.Add(h[0], h[1])
		}
	}
	sid := hreq.Header.Get("Mcp-Session-Id")
	if info.id != "" && info.method != "" {
		r.methods[sid+"\x00"+info.id] = info.method
	}

	type done struct {
		resp *http.Response
		err  error
	}
	ch := make(chan done, 1)
	go func() {
		resp, err := r.target.Client.Do(hreq)
		ch <- done{resp, err}
	}()
	var d done
	select {
	case d = <-ch:
	case <-time.After(LineTimeout):
		cancel()
		if d = <-ch; d.resp != nil {
			d.resp.Body.Close()
		}
		r.fault("no response within %v", LineTimeout)
		return false
	}
	if d.err != nil {
		cancel()
		r.fault("%s %s: %v", req.method, req.target, d.err)
		return false
	}
	resp := d.resp
	s := newRespStream(resp, cancel)
	s.sid, s.ownID, s.ownMethod, s.ownBatch = sid, info.id, info.method, info.batch
	switch {
	case info.version != "":
		s.rev = info.version
	case r.sessions[sid] != "":
		s.rev = r.sessions[sid]
	case info.method != "initialize":
		s.rev = hreq.Header.Get("MCP-Protocol-Version")
	}
	if info.method == "initialize" {
		s.minted = resp.Header.Get("Mcp-Session-Id")
	}

	// The head.
	rec := []string{strconv.Itoa(resp.StatusCode)}
	if exp.status != 0 && resp.StatusCode != exp.status {
		r.problem("status %d, want %d", resp.StatusCode, exp.status)
	}
	got := resp.Header
	if resp.Close && got.Get("Connection") == "" {
		// net/http takes "Connection: close" out of the headers it
		// hands over (Response.Close says it instead): put it back.
		got = got.Clone()
		got.Set("Connection", "close")
	}
	rec = append(rec, r.matchHeaders(exp.headers, got)...)
	rec = append(rec, "")

	// The body.
	if s.sse {
		events, err := parseEvents(exp.body)
		if err != nil {
			r.problem("%v", err)
		}
		rec = append(rec, r.matchEvents(s, events, st.Stream == "")...)
	} else {
		rec = append(rec, r.matchBody(s, exp.body)...)
	}
	if r.record {
		r.o.recorded[i] = rec
	}
	if st.Stream != "" && s.sse {
		r.streams[st.Stream] = s
	} else {
		s.close()
		if st.Stream != "" {
			r.streams[st.Stream] = s // read and end find it ended
		}
	}
	return true
}

// unrecordedHeaders are response headers -update does not write: they
// change with every run (Date) or with every body (Content-Length).
var unrecordedHeaders = map[string]bool{"Date": true, "Content-Length": true}
