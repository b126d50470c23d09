package golden

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"
)

// listenLine, listResp and the others are the lines of a host that holds
// a subscriptions/listen stream open, lists the tools, and ends the
// session; the server answers the listen request when its input ends.
const (
	listenLine = `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true}}}`
	ackLine    = `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}}`
	listLine   = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	listResp   = `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`
	listenEnd  = `{"jsonrpc":"2.0","id":"L","result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}}`
)

// listenServer plays a server that acknowledges a listen request, answers
// tools/list, and writes atEOF when its input ends; early, when set, is
// written before the tools/list response, as a server that ends the
// stream on its own would.
func listenServer(t *testing.T, atEOF []string, early string) *Peer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		defer outW.Close()
		sc := bufio.NewScanner(inR)
		for sc.Scan() {
			switch sc.Text() {
			case listenLine:
				io.WriteString(outW, ackLine+"\n")
			case listLine:
				if early != "" {
					io.WriteString(outW, early+"\n")
				}
				io.WriteString(outW, listResp+"\n")
			}
		}
		for _, l := range atEOF {
			io.WriteString(outW, l+"\n")
		}
	}()
	return NewPeer(inW, outR)
}

// shortLineTimeout makes a missing line fail a test in a second.
func shortLineTimeout(t *testing.T) {
	old := LineTimeout
	LineTimeout = time.Second
	t.Cleanup(func() { LineTimeout = old })
}

// The response of a subscriptions/listen request matches wherever it
// comes: filed under the step the recorder saw last (a host that ended
// the session with a signal the recorder did not write), under !close, or
// written by the server before the transcript's place for it. One that
// differs is reported at its line; one that never comes is reported too.
func TestLongLivedResponseFloats(t *testing.T) {
	shortLineTimeout(t)
	head := "# t\n-- session --\n> " + listenLine + "\n< " + ackLine + "\n> " + listLine + "\n< " + listResp + "\n"
	for _, tt := range []struct {
		name, text    string
		atEOF         []string
		early         string
		faults        []int // the transcript lines of the faults
		faultContains string
	}{
		{"under the last step", head + "< " + listenEnd + "\n", []string{listenEnd}, "", nil, ""},
		{"under !close", head + "> !close\n< " + listenEnd + "\n", []string{listenEnd}, "", nil, ""},
		{"written early", head + "> !close\n< " + listenEnd + "\n", nil, listenEnd, nil, ""},
		{"differs", head + "< " + strings.Replace(listenEnd, "complete", "other", 1) + "\n",
			[]string{listenEnd}, "", []int{7}, "server line differs"},
		{"never comes", head + "< " + listenEnd + "\n", nil, "", []int{7}, "never came"},
		{"comes twice", head + "< " + listenEnd + "\n", []string{listenEnd, listenEnd}, "", []int{0}, "unexpected server line"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := ReplayWith(transcript(t, tt.text), listenServer(t, tt.atEOF, tt.early), Options{})
			var lines []int
			for _, f := range o.Faults {
				lines = append(lines, f.Line)
				if !strings.Contains(f.Msg, tt.faultContains) {
					t.Errorf("fault %q does not say %q", f.Msg, tt.faultContains)
				}
			}
			if len(lines) != len(tt.faults) || (len(lines) > 0 && lines[0] != tt.faults[0]) {
				t.Errorf("faults at lines %v, want %v: %q", lines, tt.faults, o.Problems)
			}
		})
	}
}

// Record ends a step once the server owes nothing, SettlePeriod after its
// last line, not QuietPeriod after every client line; a response that
// takes longer than SettlePeriod still lands in its step, and so does a
// notification answering a notification. A request whose id is not a
// string or an integer is owed nothing.
func TestRecordStepEndsWhenAnswered(t *testing.T) {
	p, _ := fakeServer(t, func(line string) []string {
		switch {
		case strings.Contains(line, `"slow"`):
			time.Sleep(3 * SettlePeriod)
			return []string{`{"jsonrpc":"2.0","id":1,"result":{"slow":true}}`}
		case strings.Contains(line, `"notifications/poke"`):
			return []string{`{"jsonrpc":"2.0","method":"notifications/poked"}`}
		case strings.Contains(line, `"id":true`):
			return []string{`{"jsonrpc":"2.0","error":{"code":-32600,"message":"bad id"}}`}
		}
		id := line[strings.Index(line, `"id":`)+5 : strings.Index(line, `,"method"`)]
		return []string{`{"jsonrpc":"2.0","id":` + id + `,"result":{}}`}
	})
	var b strings.Builder
	const pings = 20
	b.WriteString("# t\n-- session --\n")
	b.WriteString(`> {"jsonrpc":"2.0","id":1,"method":"slow"}` + "\n")
	b.WriteString(`> {"jsonrpc":"2.0","method":"notifications/poke"}` + "\n")
	b.WriteString(`> {"jsonrpc":"2.0","id":true,"method":"ping"}` + "\n")
	for i := range pings {
		b.WriteString(`> {"jsonrpc":"2.0","id":` + strconv.Itoa(i+10) + `,"method":"ping"}` + "\n")
	}
	tr := transcript(t, b.String())
	start := time.Now()
	o := Record(tr, p, nil)
	took := time.Since(start)
	if limit := pings * QuietPeriod / 4; took > limit {
		t.Errorf("recording %d answered steps took %v, more than %v", len(tr.Steps), took, limit)
	}
	for i, want := range []string{`"slow":true`, `notifications/poked`, `bad id`} {
		if len(o.Actual[i]) != 1 || !strings.Contains(o.Actual[i][0], want) {
			t.Errorf("step %d recorded %q, want one line with %s", i+1, o.Actual[i], want)
		}
	}
	for i := 3; i < len(tr.Steps); i++ {
		if len(o.Actual[i]) != 1 {
			t.Errorf("step %d recorded %q, want its response", i+1, o.Actual[i])
		}
	}
}
