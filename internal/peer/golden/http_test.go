package golden

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"
)

const sampleHTTP = `# A sample.
-- config --
max-body-bytes=1024
# Prose before a step stays with it.
-- exchange --
> POST /mcp
> Accept: application/json
>
> {"jsonrpc":"2.0","id":1,"method":"ping"}
< 200
< Content-Type: application/json
< !Mcp-Session-Id
<
< {"jsonrpc":"2.0","id":1,"result":{}}

-- exchange listen --
> GET /mcp
< 200
<
< id: $EVT
< event: message
< data: {"a":1}
-- read listen --
< data: x
<
< data: y
-- end listen --
-- sleep 300ms --
-- shutdown --
# trailing prose
`

// A transcript formats back to the text it was parsed from.
func TestParseHTTPRoundTrip(t *testing.T) {
	tr, err := ParseHTTP("sample", []byte(sampleHTTP))
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.Format(); got != sampleHTTP {
		t.Errorf("Format:\n%s\nwant:\n%s", got, sampleHTTP)
	}
	if tr.Config["max-body-bytes"] != "1024" || len(tr.Steps) != 6 {
		t.Fatalf("config %v, %d steps", tr.Config, len(tr.Steps))
	}
	kinds := []HTTPStepKind{StepExchange, StepExchange, StepRead, StepEnd, StepSleep, StepShutdown}
	for i, st := range tr.Steps {
		if st.Kind != kinds[i] {
			t.Errorf("step %d: %s, want %s", i+1, st.Kind, kinds[i])
		}
	}
	if tr.Steps[1].Stream != "listen" || tr.Steps[4].Sleep != 300*time.Millisecond {
		t.Errorf("steps: %+v", tr.Steps)
	}
	req, err := parseHTTPRequest(tr.Steps[0].Request)
	if err != nil || req.method != "POST" || req.target != "/mcp" || len(req.headers) != 1 || req.body != `{"jsonrpc":"2.0","id":1,"method":"ping"}` {
		t.Errorf("request: %+v, %v", req, err)
	}
	exp, err := parseHTTPExpect(tr.Steps[0].Expected)
	if err != nil || exp.status != 200 || len(exp.headers) != 2 || !exp.headers[1].absent || len(exp.body) != 1 {
		t.Errorf("expectation: %+v, %v", exp, err)
	}
	events, err := parseEvents(tr.Steps[2].Expected)
	if err != nil || len(events) != 2 || events[1].fields[0].value != "y" {
		t.Errorf("events: %+v, %v", events, err)
	}
}

// Malformed transcripts are refused with the line at fault.
func TestParseHTTPErrors(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"no prose", "-- exchange --\n> GET /\n", "prose header"},
		{"unknown step", "# x\n-- wait --\n", `unknown step "wait"`},
		{"bad sleep", "# x\n-- sleep soon --\n", "not a duration"},
		{"unopened stream", "# x\n-- read s --\n< data: 1\n", "no open stream s"},
		{"reopened stream", "# x\n-- exchange s --\n> GET /\n-- exchange s --\n> GET /\n", "open already"},
		{"closed stream read", "# x\n-- exchange s --\n> GET /\n-- close s --\n-- read s --\n", "no open stream s"},
		{"request in read", "# x\n-- exchange s --\n> GET /\n-- read s --\n> GET /\n", "sends no request"},
		{"expectation in close", "# x\n-- exchange s --\n> GET /\n-- close s --\n< 200\n", "expects nothing"},
		{"request after response", "# x\n-- exchange --\n> GET /\n< 200\n> X: y\n", "after the expected response"},
		{"prose inside", "# x\n-- exchange --\n> GET /\n# note\n< 200\n", "inside a step"},
		{"bare line", "# x\n-- exchange --\nGET /\n", `start with "> " or "< "`},
		{"bad request line", "# x\n-- exchange --\n> GET\n", "want METHOD /path"},
		{"bad header", "# x\n-- exchange --\n> GET /\n> NoColon\n", "want Name: value"},
		{"bad status", "# x\n-- exchange --\n> GET /\n< OK\n", "want a number"},
		{"comment expected", "# x\n-- exchange s --\n> GET /\n-- read s --\n< : keep-alive\n", "comments are skipped"},
		{"late config", "# x\n-- exchange --\n> GET /\n-- config --\n", "before every step"},
		{"bad config", "# x\n-- config --\nnovalue\n", "key=value"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseHTTP("t", []byte(c.text))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}

// fakeMCP is a small server with the shapes the harness reads: JSON
// bodies, minted ids, event streams with random ids, open streams.
type fakeMCP struct {
	mu     sync.Mutex
	pushes chan string // data pushed onto the open /stream
}

func randomHex() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (f *fakeMCP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	json.Unmarshal(body, &req)
	if len(req.ID) == 0 {
		req.ID = json.RawMessage("null")
	}
	switch r.URL.Path {
	case "/init": // mints a session
		w.Header().Set("Mcp-Session-Id", randomHex())
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25"}}`+"\n", req.ID)
	case "/echo": // tells what it got; with ?session, echoes the session id
		w.Header().Set("Content-Type", "application/json")
		session := ""
		if r.URL.Query().Has("session") {
			session = fmt.Sprintf(`"session":%q,`, r.Header.Get("Mcp-Session-Id"))
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{%s"sessionSet":%v,"host":%q,"chunked":%v,"len":%d,"cursor":{"nextCursor":"c0ffee"}}}`+"\n",
			req.ID, session, r.Header.Get("Mcp-Session-Id") != "", r.Host, r.ContentLength < 0, len(body))
	case "/sse": // progress then the response, random ids
		w.Header().Set("Content-Type", "text/event-stream")
		prefix := randomHex()
		fmt.Fprintf(w, ": keep-alive\n\nid: %s-1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n\n", prefix)
		fmt.Fprintf(w, "id: %s-2\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{}}\n\n", prefix, req.ID)
	case "/stream": // stays open: one event, then whatever /push sends
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"hello\"}\n\n")
		w.(http.Flusher).Flush()
		for {
			select {
			case d := <-f.pushes:
				fmt.Fprintf(w, "data: %s\n\n", d)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	case "/push":
		f.pushes <- strings.TrimSpace(string(body))
		w.WriteHeader(http.StatusAccepted)
	case "/text":
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "line one\nline two\n")
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

func fakeTarget(t *testing.T) (HTTPTarget, func()) {
	ts := httptest.NewServer(&fakeMCP{pushes: make(chan string, 8)})
	return HTTPTarget{URL: ts.URL, Client: ts.Client(), Shutdown: func() {}}, ts.Close
}

const fakeTranscript = `# Binding, absent headers, streams, text bodies.
-- exchange --
> POST /init
>
> {"jsonrpc":"2.0","id":1,"method":"initialize"}
< 200
< content-type: application/json
< Mcp-Session-Id: $SESSION
<
< {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}
-- exchange --
> POST /echo?session
> Mcp-Session-Id: $SESSION
> Host: mcp.example
> Transfer-Encoding: chunked
>
> !pad 3 {"jsonrpc":"2.0","id":"e","method":"x","pad":"@PAD@"}
< 200
< !Mcp-Session-Id
<
< {"jsonrpc":"2.0","id":"e","result":{"session":"$SESSION","sessionSet":true,"host":"mcp.example","chunked":true,"len":51,"cursor":{"nextCursor":"$CURSOR"}}}
-- exchange --
> POST /sse
>
> {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}
< 200
< Content-Type: text/event-stream
<
< id: $EVT1
< event: message
< data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}
<
< id: $EVT2
< event: message
< data: {"result":{},"jsonrpc":"2.0","id":2}
-- exchange s --
> GET /stream
> Mcp-Session-Id: $SESSION
< 200
<
< id: 1
< data: {"jsonrpc":"2.0","method":"hello"}
-- exchange --
> POST /push
>
> "pushed"
< 202
<
-- read s --
< data: "pushed"
-- exchange --
> GET /text
< 200
<
< line one
< line two
-- close s --
`

// A transcript that matches replays without problems, and the checker
// sees every message with its revision.
func TestReplayHTTP(t *testing.T) {
	target, stop := fakeTarget(t)
	defer stop()
	tr, err := ParseHTTP("fake", []byte(fakeTranscript))
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	check := func(rev string, methodOf func([]byte) string, line []byte) error {
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal(line, &m)
		method := ""
		if len(m.ID) > 0 {
			method = methodOf(m.ID)
		}
		seen = append(seen, rev+" "+method)
		return nil
	}
	o := ReplayHTTP(tr, target, check)
	for _, p := range o.Problems {
		t.Error(p)
	}
	want := []string{"2025-11-25 initialize", "2025-11-25 x", "2026-07-28 ", "2026-07-28 tools/call", "2025-11-25 ", "2025-11-25 "}
	if strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Errorf("checked %q, want %q", seen, want)
	}
}

// Every kind of mismatch is reported, naming the step's line.
func TestReplayHTTPMismatches(t *testing.T) {
	target, stop := fakeTarget(t)
	defer stop()
	for _, c := range []struct{ name, from, to, want string }{
		{"status", "< 202\n", "< 200\n", "status 202, want 200"},
		{"header value", "< content-type: application/json", "< Content-Type: text/plain", `header Content-Type: "application/json", want "text/plain"`},
		{"absent header", "< !Mcp-Session-Id", "< !Content-Type", "header Content-Type"},
		{"missing header", "< Mcp-Session-Id: $SESSION", "< Mcp-Session-Id: $SESSION\n< X-Nope: 1", "header X-Nope missing"},
		{"json body", `"protocolVersion":"2025-11-25"}}`, `"protocolVersion":"2025-06-18"}}`, "body differs"},
		{"bound placeholder", `"host":"mcp.example"`, `"host":"$SESSION"`, "body differs"},
		{"event data", `"params":{"progress":1}}`, `"params":{"progress":2}}`, "event 1 data differs"},
		{"event shape", "< id: $EVT2\n< event: message\n", "< id: $EVT2\n", "event 2:"},
		{"missing event", `< data: "pushed"`, "< data: \"pushed\"\n<\n< data: more", "expected event 2: " + ErrTimeout.Error()},
		{"extra event", "< id: $EVT2\n< event: message\n< data: {\"result\":{},\"jsonrpc\":\"2.0\",\"id\":2}\n", "", "unexpected event after the last one expected"},
		{"text body", "< line two\n", "< line 2\n", "body \"line one\\nline two\""},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(fakeTranscript, c.from, c.to, 1)
			if text == fakeTranscript {
				t.Fatalf("%q is not in the transcript", c.from)
			}
			tr, err := ParseHTTP("fake", []byte(text))
			if err != nil {
				t.Fatal(err)
			}
			saved := LineTimeout
			LineTimeout = 2 * time.Second // event 1 comes in time on a loaded machine; event 2 never does
			defer func() { LineTimeout = saved }()
			o := ReplayHTTP(tr, target, nil)
			all := strings.Join(o.Problems, "\n")
			if !strings.Contains(all, c.want) || !strings.Contains(all, "step at line ") {
				t.Errorf("problems:\n%s\nwant one saying %q", all, c.want)
			}
		})
	}
}

// Recording fills in a transcript written with requests only: random
// values become placeholders, matched lines are kept, and the result
// replays cleanly.
func TestRecordHTTP(t *testing.T) {
	target, stop := fakeTarget(t)
	defer stop()
	text := `# Requests only.
-- exchange --
> POST /init
>
> {"jsonrpc":"2.0","id":1,"method":"initialize"}
-- exchange --
> POST /echo
> Mcp-Session-Id: $SESSION_1
>
> {"jsonrpc":"2.0","id":2,"method":"x"}
< 200
< Content-Type: application/json
< !Mcp-Session-Id
-- exchange --
> POST /sse
-- exchange s --
> GET /stream
-- exchange --
> POST /push
>
> 7
-- read s --
-- close s --
`
	tr, err := ParseHTTP("rec", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	saved := QuietPeriod
	QuietPeriod = 150 * time.Millisecond
	defer func() { QuietPeriod = saved }()
	o := RecordHTTP(tr, target)
	for _, p := range o.Problems {
		t.Error(p)
	}
	rewritten := o.Rewrite(tr)
	got := rewritten.Format()
	for _, want := range []string{
		"< Mcp-Session-Id: $SESSION_1\n",
		"< Content-Type: application/json\n< !Mcp-Session-Id\n<\n",
		`"sessionSet":true`, // the request named the session bound at step 1
		`"nextCursor":"$CURSOR_2_1"`,
		"< id: $EVENT_3_1\n< event: message\n",
		"< id: $EVENT_3_2\n",
		"-- read s --\n< data: 7\n-- close s --\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("recorded transcript lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Date:") || strings.Contains(got, "Content-Length:") {
		t.Errorf("recorded Date or Content-Length:\n%s", got)
	}
	again, err := ParseHTTP("rec", []byte(got))
	if err != nil {
		t.Fatal(err)
	}
	if o := ReplayHTTP(again, target, nil); len(o.Problems) > 0 {
		t.Errorf("the recorded transcript does not replay:\n%s\n%s", strings.Join(o.Problems, "\n"), got)
	}
}

// An expected string "$NAME" binds once, then matches its value only; a
// request line gets bound names replaced and others left alone.
func TestHTTPPlaceholders(t *testing.T) {
	r := &httpRun{binds: map[string]string{}, o: &HTTPOutcome{}}
	if !r.matchText("$A", "one") || !r.matchText("$A", "one") || r.matchText("$A", "two") {
		t.Error("a bound placeholder matches another value")
	}
	if r.matchText("x$A", "xone") {
		t.Error("a placeholder inside text binds")
	}
	if got := r.expand("id $A and $B"); got != "id one and $B" {
		t.Errorf("expand: %q", got)
	}
	if p := r.matchJSON(`{"a":"$A","b":"$B"}`, `{"b":"new","a":"one"}`); p != "" {
		t.Error(p)
	}
	if p := r.matchJSON(`{"b":"$B"}`, `{"b":"other"}`); p == "" {
		t.Error("$B matched a second value")
	}
	if p := r.matchJSON(`{}`, `{} {}`); !strings.Contains(p, "not one JSON value") {
		t.Errorf("two values: %q", p)
	}
}

// A read step that recorded nothing loses its old expectations.
func TestRecordHTTPNothingMore(t *testing.T) {
	target, stop := fakeTarget(t)
	defer stop()
	text := "# Stale.\n-- exchange s --\n> GET /stream\n< 200\n<\n< id: 1\n< data: {\"jsonrpc\":\"2.0\",\"method\":\"hello\"}\n-- read s --\n< data: stale\n-- close s --\n"
	tr, err := ParseHTTP("stale", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	saved := QuietPeriod
	QuietPeriod = 100 * time.Millisecond
	defer func() { QuietPeriod = saved }()
	got := RecordHTTP(tr, target).Rewrite(tr).Format()
	if strings.Contains(got, "stale") || !strings.Contains(got, "-- read s --\n-- close s --\n") {
		t.Errorf("rewritten:\n%s", got)
	}
}
