package golden

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"
)

// matchHeaders checks the expected headers and returns the header lines
// to record.
func (r *httpRun) matchHeaders(exp []headerExpect, got http.Header) []string {
	var rec []string
	covered := map[string]bool{}
	for _, h := range exp {
		vs := got.Values(h.name)
		ok := true
		switch {
		case h.absent && len(vs) > 0:
			r.problem("header %s: %q, want none", h.name, strings.Join(vs, ", "))
			ok = false
		case h.absent:
		case len(vs) == 0:
			r.problem("header %s missing, want %q", h.name, h.value)
			ok = false
		default:
			if v := strings.Join(vs, ", "); !r.matchText(h.value, v) {
				r.problem("header %s: %q, want %q", h.name, v, h.value)
				ok = false
			}
		}
		if ok {
			rec = append(rec, h.raw)
			covered[http.CanonicalHeaderKey(h.name)] = true
		}
	}
	names := make([]string, 0, len(got))
	for k := range got {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if unrecordedHeaders[k] || covered[k] {
			continue
		}
		v := strings.Join(got.Values(k), ", ")
		if k == "Mcp-Session-Id" {
			name := fmt.Sprintf("$SESSION_%d", r.step)
			r.binds[name] = v
			v = name
		}
		rec = append(rec, k+": "+v)
	}
	return rec
}

// matchText compares a text value; an expected "$NAME" binds.
func (r *httpRun) matchText(exp, got string) bool {
	if placeholder.FindString(exp) == exp && exp != "" {
		if v, ok := r.binds[exp]; ok {
			return v == got
		}
		r.binds[exp] = got
		return true
	}
	return exp == got
}

// matchJSON compares a JSON value with the stdio binding rule; it returns
// a problem, "" when they match.
func (r *httpRun) matchJSON(exp, got string) string {
	var e, a any
	if err := strictUnmarshal(exp, &e); err != nil {
		return fmt.Sprintf("expected value is not JSON: %v", err)
	}
	if err := strictUnmarshal(got, &a); err != nil {
		return fmt.Sprintf("server value is not one JSON value: %v\n%s", err, got)
	}
	e = (&replayer{binds: r.binds}).bind(e, a)
	if d := cmp.Diff(e, a); d != "" {
		return fmt.Sprintf("differs (-want +got):\n%s", d)
	}
	return ""
}

// strictUnmarshal decodes exactly one JSON value, keeping numbers exact.
func strictUnmarshal(s string, v *any) error {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	var more any
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		return errors.New("more than one JSON value")
	}
	return nil
}

// recordJSON writes a recorded message, naming cursors and states with
// placeholders, which it binds, so that later requests of the same
// recording can send them back.
func (r *httpRun) recordJSON(msg string, event int) string {
	name := func(kind string, re *regexp.Regexp, key string) {
		ph := fmt.Sprintf("$%s_%d_%d", kind, r.step, event)
		msg = re.ReplaceAllStringFunc(msg, func(m string) string {
			var v string
			if json.Unmarshal([]byte(strings.TrimPrefix(m, `"`+key+`":`)), &v) == nil {
				r.binds[ph] = v
			}
			return `"` + key + `":"` + ph + `"`
		})
	}
	name("CURSOR", cursorValue, "nextCursor")
	name("STATE", stateValue, "requestState")
	return msg
}

// matchBody reads a body that is not an event stream and compares it.
func (r *httpRun) matchBody(s *respStream, exp []string) []string {
	got, err := s.readAll(LineTimeout)
	if err != nil {
		r.fault("reading the body: %v", err)
		return nil
	}
	text := strings.TrimSuffix(string(got), "\n")
	isJSON := strings.HasPrefix(s.resp.Header.Get("Content-Type"), "application/json")
	if text == "" {
		if len(exp) > 0 {
			r.problem("empty body, want:\n%s", strings.Join(exp, "\n"))
		}
		return nil
	}
	if !isJSON {
		if want := strings.Join(exp, "\n"); want != text {
			r.problem("body %q, want %q", text, want)
			return strings.Split(text, "\n")
		}
		return exp
	}
	r.checkMessage(s, text)
	if len(exp) == 0 {
		r.problem("body %s, want none", text)
		return []string{r.recordJSON(text, 1)}
	}
	if p := r.matchJSON(strings.Join(exp, "\n"), text); p != "" {
		r.problem("body %s", p)
		return []string{r.recordJSON(text, 1)}
	}
	return exp
}

// matchEvents reads and compares events: the expected ones, and then,
// with end, the stream's end. Recording, it reads until the stream ends
// (end) or falls quiet.
func (r *httpRun) matchEvents(s *respStream, exp []sseEvent, end bool) []string {
	var rec []string
	for j := 0; r.record || j < len(exp); j++ {
		timeout := LineTimeout
		if r.record && !end {
			timeout = QuietPeriod
		}
		ev, err := s.next(timeout)
		if err != nil {
			if r.record {
				if end || !errors.Is(err, ErrTimeout) {
					r.noteEnd(err, end)
				}
				return rec
			}
			r.problem("expected event %d: %v", j+1, err)
			return rec
		}
		if j > 0 {
			rec = append(rec, "")
		}
		var want *sseEvent
		if j < len(exp) {
			want = &exp[j]
		} else {
			r.problem("unexpected event: %s", ev.text())
		}
		rec = append(rec, r.matchEvent(s, j+1, want, ev)...)
	}
	if end {
		for {
			ev, err := s.next(LineTimeout)
			if err != nil {
				r.noteEnd(err, true)
				return rec
			}
			r.checkEvent(s, ev)
			r.problem("unexpected event after the last one expected: %s", ev.text())
		}
	}
	return rec
}

// noteEnd reports how a stream that should end did not.
func (r *httpRun) noteEnd(err error, end bool) {
	switch {
	case errors.Is(err, io.EOF):
	case errors.Is(err, ErrTimeout) && end:
		r.fault("the stream did not end within %v (keep it open with -- exchange NAME --)", LineTimeout)
	default:
		r.fault("reading the stream: %v", err)
	}
}

// matchEvent compares one event (want nil: none expected) and returns the
// lines to record.
func (r *httpRun) matchEvent(s *respStream, n int, want *sseEvent, got sseEvent) []string {
	r.checkEvent(s, got)
	if got.partial {
		r.problem("event %d: the stream ended in the middle of it", n)
	}
	sameShape := want != nil && len(want.fields) == len(got.fields)
	for k := 0; sameShape && k < len(got.fields); k++ {
		sameShape = want.fields[k].name == got.fields[k].name
	}
	if want != nil && !sameShape {
		r.problem("event %d: %s, want %s", n, got.text(), want.text())
	}
	var rec []string
	for k, f := range got.fields {
		if sameShape {
			w := want.fields[k]
			if r.matchField(n, w, f) {
				rec = append(rec, w.raw)
				continue
			}
		}
		rec = append(rec, r.recordField(n, f))
	}
	return rec
}

// matchField compares one field of an event.
func (r *httpRun) matchField(n int, want, got sseField) bool {
	if want.name == "data" && want.value != "" && placeholder.FindString(want.value) != want.value {
		var probe any
		if strictUnmarshal(want.value, &probe) == nil {
			if p := r.matchJSON(want.value, got.value); p != "" {
				r.problem("event %d data %s", n, p)
				return false
			}
			return true
		}
	}
	if !r.matchText(want.value, got.value) {
		r.problem("event %d %s: %q, want %q", n, got.name, got.value, want.value)
		return false
	}
	return true
}

var numeric = regexp.MustCompile(`^[0-9]+$`)

// recordField writes a field as recorded: a random event id as a
// placeholder (bound, so that later requests can name it).
func (r *httpRun) recordField(n int, f sseField) string {
	switch {
	case f.name == "id" && f.value != "" && !numeric.MatchString(f.value):
		name := fmt.Sprintf("$EVENT_%d_%d", r.step, n)
		r.binds[name] = f.value
		return "id: " + name
	case f.name == "data" && f.value != "":
		return "data: " + r.recordJSON(f.value, n)
	}
	return strings.TrimSuffix(f.name+": "+f.value, " ")
}

// checkEvent checks the message an event's data carries.
func (r *httpRun) checkEvent(s *respStream, ev sseEvent) {
	for _, f := range ev.fields {
		if f.name == "data" && f.value != "" {
			r.checkMessage(s, f.value)
		}
	}
}

// checkMessage notes the revision an initialize response negotiates and
// runs the Checker on one JSON-RPC message of s.
func (r *httpRun) checkMessage(s *respStream, msg string) {
	if s.ownMethod == "initialize" {
		var env struct {
			ID     json.RawMessage `json:"id"`
			Result struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
		}
		if json.Unmarshal([]byte(msg), &env) == nil && compactJSON(env.ID) == s.ownID && env.Result.ProtocolVersion != "" {
			s.rev = env.Result.ProtocolVersion
			if s.minted != "" {
				r.sessions[s.minted] = s.rev
			}
		}
	}
	if r.check == nil {
		return
	}
	methodOf := func(id []byte) string {
		k := compactJSON(id)
		if s.ownID != "" && k == s.ownID {
			return s.ownMethod
		}
		if m, ok := s.ownBatch[k]; ok {
			return m
		}
		return r.methods[s.sid+"\x00"+k]
	}
	if err := r.check(s.rev, methodOf, []byte(msg)); err != nil {
		r.fault("schema check (%q): %v\n%s", s.rev, err, msg)
	}
}

func (ev sseEvent) text() string {
	parts := make([]string, len(ev.fields))
	for i, f := range ev.fields {
		parts[i] = f.name + ": " + f.value
	}
	return "[" + strings.Join(parts, " | ") + "]"
}
