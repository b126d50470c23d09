package golden

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"
)

// SettlePeriod is how long Record waits for more server lines after a
// step once the server owes no response: every request sent so far has
// its response, but for a long-lived one (longLived) and one with an id
// that is not a string or an integer. While a response is owed, Record
// waits QuietPeriod after each line (the server may be waiting for the
// client's answer to its own request, and may give up on it), and a
// !close step ends when the server's output does (or after QuietPeriod
// of silence). A step that gets its answers therefore costs about
// SettlePeriod past its last line, not QuietPeriod per client line.
var SettlePeriod = 40 * time.Millisecond

// longLived are the methods whose response ends a stream rather than
// answering at once: the subscriptions/listen stream (2026-07-28,
// Subscriptions) is answered when it ends, often at shutdown, and a
// tasks/result (2025-11-25, Tasks) when its task is done. Their responses
// are not owed by any step (Record does not wait for them), and on replay
// one matches wherever it comes, before or after the step the transcript
// files it under, since when it comes depends on when the host ended the
// session, not on the step.
var longLived = map[string]bool{"subscriptions/listen": true, "tasks/result": true}

// message is what the engine reads of a JSON-RPC message to follow the
// exchange: its id's JSON text ("" when it has none) and its method.
type message struct {
	id     string
	method string
}

// messageOf reads a line holding one JSON-RPC message; ok is false for a
// batch, a line that is not JSON, or one that is not an object.
func messageOf(line string) (m message, params map[string]json.RawMessage, ok bool) {
	var raw struct {
		ID     json.RawMessage            `json:"id"`
		Method string                     `json:"method"`
		Params map[string]json.RawMessage `json:"params"`
	}
	if json.Unmarshal([]byte(line), &raw) != nil {
		return message{}, nil, false
	}
	m.method = raw.Method
	if len(raw.ID) > 0 {
		m.id = canonicalID(raw.ID)
	}
	return m, raw.Params, true
}

// canonicalID is an id's JSON text as idText writes it, whatever the
// spacing or number form of raw.
func canonicalID(raw json.RawMessage) string {
	var v any
	if unmarshal(string(raw), &v) != nil {
		return string(raw)
	}
	return idText(v)
}

// validID reports whether an id's JSON text is a string or an integer,
// as a request id is (Base Protocol, Requests): a request with another
// id is refused with a response that names none, so it is owed nothing.
func validID(id string) bool {
	if strings.HasPrefix(id, `"`) {
		return true
	}
	_, err := strconv.ParseInt(id, 10, 64)
	return err == nil || (len(id) > 0 && strings.Trim(id, "-0123456789") == "")
}

// response reports whether m is a response (an id and no method).
func (m message) response() bool { return m.id != "" && m.method == "" }

// request reports whether m is a request (an id and a method).
func (m message) request() bool { return m.id != "" && m.method != "" }

// findFloating finds, before a replay, the expected lines that are responses
// to a long-lived request of an earlier or the same step: they match
// wherever they come (takeFloating), not in their step's order.
func (r *replayer) findFloating() {
	r.floats = map[string][][2]int{}
	r.floating = map[[2]int]bool{}
	open := map[string]bool{}
	for i, st := range r.tr.Steps {
		if m, _, ok := messageOf(st.Client); ok && m.request() && longLived[m.method] {
			open[m.id] = true
		}
		for j, e := range st.Expected {
			if m, _, ok := messageOf(e); ok && m.response() && open[m.id] {
				r.floats[m.id] = append(r.floats[m.id], [2]int{i, j})
				r.floating[[2]int{i, j}] = true
			}
		}
	}
}

// takeFloating matches a server line that answers a long-lived request
// against the transcript's response to it, wherever the transcript files
// it; it reports false (the line is the step's to compare) when the line
// is no such response or every such expected line has been matched.
func (r *replayer) takeFloating(line string) bool {
	m, _, ok := messageOf(line)
	if !ok || !m.response() || len(r.floats[m.id]) == 0 {
		return false
	}
	at := r.floats[m.id][0]
	r.floats[m.id] = r.floats[m.id][1:]
	st := r.tr.Steps[at[0]]
	r.o.Actual[at[0]] = append(r.o.Actual[at[0]], line)
	r.diff(at[0], at[1], st.Line, st.expectedLine(at[1]), st.Expected[at[1]], line)
	r.inspect(st.Line, st.expectedLine(at[1]), line)
	return true
}

// missingFloating reports each long-lived request's expected response that
// never came.
func (r *replayer) missingFloating() {
	for i, st := range r.tr.Steps {
		for j := range st.Expected {
			at := [2]int{i, j}
			if !r.floating[at] || !r.pending(at) {
				continue
			}
			what := "(the response of a long-lived request) never came"
			r.o.fault(fmt.Sprintf("line %d: expected server line %d %s", st.Line, j+1, what), st.expectedLine(j),
				fmt.Sprintf("expected server line %d of the step at line %d %s", j+1, st.Line, what))
		}
	}
}

// pending reports whether the floating expected line at is still unmatched.
func (r *replayer) pending(at [2]int) bool {
	m, _, _ := messageOf(r.tr.Steps[at[0]].Expected[at[1]])
	for _, f := range r.floats[m.id] {
		if f == at {
			return true
		}
	}
	return false
}

// clientSent follows a line the harness sent: a request is owed its
// response (unless long-lived), a notifications/cancelled releases the
// request it names.
func (r *replayer) clientSent(line string) {
	var batch []json.RawMessage
	if json.Unmarshal([]byte(line), &batch) == nil {
		for _, b := range batch {
			r.clientSent(string(b))
		}
		return
	}
	m, params, ok := messageOf(line)
	switch {
	case !ok:
	case m.request() && !longLived[m.method] && validID(m.id):
		r.owed[m.id] = true
	case m.method == "notifications/cancelled":
		if id, ok := params["requestId"]; ok {
			delete(r.owed, canonicalID(id))
		}
	}
}

// serverSent follows a line the server wrote: a response pays what was
// owed.
func (r *replayer) serverSent(line string) {
	if m, _, ok := messageOf(line); ok && m.response() {
		delete(r.owed, m.id)
	}
}

// quietWindow is how long Record waits for the next server line of a
// step: QuietPeriod while the server owes a response (or after !close,
// until its output ends), SettlePeriod otherwise.
func (r *replayer) quietWindow(closing bool) time.Duration {
	if closing || len(r.owed) > 0 {
		return QuietPeriod
	}
	return SettlePeriod
}
