package golden

import (
	"bufio"
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
