package golden

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// Rewrite names new cursors and request states with placeholders and keeps
// the expected lines that matched.
func TestRewritePlaceholders(t *testing.T) {
	tr := &Transcript{Steps: []Step{
		{Client: "a", Expected: []string{`{"kept":"$X"}`}},
		{Client: "b"},
	}}
	o := &Outcome{
		Actual: [][]string{
			{`{"kept":"value"}`},
			{`{"nextCursor":"abc"}`, `{"result":{"resultType":"input_required","requestState":"c2VhbGVk"}}`, `{"requestState":"$STATE_9_9"}`},
		},
		matched: map[[2]int]bool{{0, 0}: true},
	}
	got := o.Rewrite(tr)
	want := [][]string{
		{`{"kept":"$X"}`},
		{`{"nextCursor":"$CURSOR_2_1"}`, `{"result":{"resultType":"input_required","requestState":"$STATE_2_2"}}`, `{"requestState":"$STATE_9_9"}`},
	}
	for i, st := range got.Steps {
		if strings.Join(st.Expected, "\n") != strings.Join(want[i], "\n") {
			t.Errorf("step %d: %q, want %q", i+1, st.Expected, want[i])
		}
	}
}

func TestSleepDirective(t *testing.T) {
	for _, tt := range []struct {
		client  string
		d       time.Duration
		ok, err bool
	}{
		{"!sleep 300ms", 300 * time.Millisecond, true, false},
		{"!sleep  2s ", 2 * time.Second, true, false},
		{"!sleep soon", 0, true, true},
		{"!sleep -1s", 0, true, true},
		{"!close", 0, false, false},
		{`{"jsonrpc":"2.0"}`, 0, false, false},
	} {
		d, ok, err := sleepDirective(tt.client)
		if ok != tt.ok || (err != nil) != tt.err || (err == nil && d != tt.d) {
			t.Errorf("sleepDirective(%q) = %v, %v, %v; want %v, %v, error %v", tt.client, d, ok, err, tt.d, tt.ok, tt.err)
		}
	}
}

// A client line gets a bound placeholder replaced wherever it stands, so a
// transcript can send a tampered state; an unbound one is sent as it is.
func TestSendExpandsPlaceholdersInside(t *testing.T) {
	inR, inW := io.Pipe()
	p := NewPeer(inW, strings.NewReader(""))
	r := replayer{p: p, binds: map[string]string{"$STATE_1_1": "sealed"}, methods: map[string]string{}, modern: map[string]string{}}
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(inR).ReadString('\n')
		got <- line
	}()
	if err := r.send(Step{Client: `{"requestState":"X$STATE_1_1","other":"$UNBOUND"}`}); err != nil {
		t.Fatal(err)
	}
	if want := `{"requestState":"Xsealed","other":"$UNBOUND"}` + "\n"; <-got != want {
		t.Errorf("sent a line other than %q", want)
	}
}

// Each problem has a Fault naming the transcript line it is about: the
// expected line that differs or did not come (past blank lines), the
// client line that could not be sent, none after the last step.
func TestFaultLines(t *testing.T) {
	p, _ := fakeServer(t, func(line string) []string {
		if line == `{"id":1}` {
			return []string{`{"id":1,"a":1}`, `{"id":1,"b":2}`, `{"id":1,"c":3}`}
		}
		return []string{`{"id":2}`}
	})
	text := "# t\n-- session --\n> {\"id\":1}\n< {\"id\":1,\"a\":1}\n\n< {\"id\":1,\"b\":0}\n< {\"id\":1,\"c\":3}\n> {\"id\":3}\n"
	o := Replay(transcript(t, text), p, nil)
	var lines []int
	for _, f := range o.Faults {
		lines = append(lines, f.Line)
	}
	if len(o.Faults) != len(o.Problems) || len(lines) != 2 || lines[0] != 6 || lines[1] != 0 ||
		!strings.HasPrefix(o.Faults[0].Msg, "server line differs") || !strings.HasPrefix(o.Problems[0], "step at line 3: server line differs") {
		t.Errorf("faults %+v, problems %q; want line 6 (a difference) and 0 (a line after the last step)", o.Faults, o.Problems)
	}
}

// A recording reports no difference but what the checker finds, in every
// line it records, expected or not.
func TestRecordReportsChecks(t *testing.T) {
	QuietPeriod = 50 * time.Millisecond
	defer func() { QuietPeriod = 400 * time.Millisecond }()
	p, _ := fakeServer(t, func(string) []string { return []string{`{"id":1,"bad":1}`, `{"id":1,"good":1}`, `{"id":1,"bad":2}`} })
	tr := transcript(t, "# t\n-- session --\n> {\"id\":1}\n< {\"id\":1,\"bad\":0}\n")
	check := func(_ string, _ func([]byte) string, line []byte) error {
		if strings.Contains(string(line), "bad") {
			return errors.New("bad line")
		}
		return nil
	}
	o := Record(tr, p, check)
	if len(o.Faults) != 2 || o.Faults[0].Line != 4 || o.Faults[1].Line != 3 || !strings.HasPrefix(o.Faults[0].Msg, "line check") {
		t.Errorf("faults %+v, want the checker's two, at lines 4 (expected) and 3 (the step's)", o.Faults)
	}
}
