package golden

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"time"
)

// fakeServer is a Peer whose server answers each client line with the
// lines answer returns; seen gets every client line it read.
func fakeServer(t *testing.T, answer func(line string) []string) (p *Peer, seen *[]string) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	seen = new([]string)
	go func() {
		defer outW.Close()
		sc := bufio.NewScanner(inR)
		for sc.Scan() {
			*seen = append(*seen, sc.Text())
			for _, l := range answer(sc.Text()) {
				io.WriteString(outW, l+"\n")
			}
		}
	}()
	return NewPeer(inW, outR), seen
}

// transcript builds a Transcript from file text.
func transcript(t *testing.T, text string) *Transcript {
	t.Helper()
	path := t.TempDir() + "/t.golden"
	if err := writeFile(path, text); err != nil {
		t.Fatal(err)
	}
	tr, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// A time that parses as RFC 3339 matches another only with
// Options.Timestamps; other strings still compare exactly.
func TestTimestamps(t *testing.T) {
	now := time.Now().UTC().Format(time.RFC3339Nano)
	answer := func(string) []string {
		return []string{`{"id":1,"result":{"at":"` + now + `","day":"2024-01-01","text":"b"}}`}
	}
	text := "# t\n-- session --\n> {\"id\":1}\n< {\"id\":1,\"result\":{\"at\":\"2001-02-03T04:05:06+01:00\",\"day\":\"2024-01-01\",\"text\":\"%s\"}}\n"
	for _, tt := range []struct {
		on       bool
		text     string
		problems int
	}{{false, "b", 1}, {true, "b", 0}, {true, "a", 1}} {
		p, _ := fakeServer(t, answer)
		o := ReplayWith(transcript(t, strings.Replace(text, "%s", tt.text, 1)), p, Options{Timestamps: tt.on})
		if len(o.Problems) != tt.problems {
			t.Errorf("timestamps %v, text %q: %d problems, want %d: %q", tt.on, tt.text, len(o.Problems), tt.problems, o.Problems)
		}
	}
}

// A header's "# volatile:" pointers (with "*" for any element) let their
// values differ; everything else still compares.
func TestVolatile(t *testing.T) {
	text := "# t\n# volatile: /result/n\n# volatile: /result/items/*/id\n# volatile: /result/a~1b\n-- session --\n" +
		"> {\"id\":1}\n< {\"id\":1,\"result\":{\"n\":1,\"a/b\":1,\"items\":[{\"id\":\"x\",\"k\":1},{\"id\":\"y\",\"k\":2}],\"keep\":%s}}\n"
	answer := func(string) []string {
		return []string{`{"id":1,"result":{"n":99,"a/b":[],"items":[{"id":"p","k":1},{"id":"q","k":2}],"keep":true}}`}
	}
	for _, tt := range []struct {
		keep     string
		volatile bool
		problems int
	}{{"true", true, 0}, {"false", true, 1}, {"true", false, 1}} {
		tr := transcript(t, strings.Replace(text, "%s", tt.keep, 1))
		ptrs, err := tr.Volatile()
		if err != nil || len(ptrs) != 3 {
			t.Fatalf("Volatile() = %q, %v", ptrs, err)
		}
		if !tt.volatile {
			ptrs = nil
		}
		p, _ := fakeServer(t, answer)
		if o := ReplayWith(tr, p, Options{Volatile: ptrs}); len(o.Problems) != tt.problems {
			t.Errorf("keep %s, volatile %v: %d problems, want %d: %q", tt.keep, tt.volatile, len(o.Problems), tt.problems, o.Problems)
		}
	}
	if _, err := transcript(t, "# t\n# volatile: result/n\n-- session --\n").Volatile(); err == nil {
		t.Error("a pointer without a leading / was accepted")
	}
}

// With Options.Text an expected line that is not JSON matches the same
// text and differs from other text.
func TestTextLines(t *testing.T) {
	answer := func(string) []string { return []string{"hello, stdout"} }
	for _, tt := range []struct {
		want     string
		text     bool
		problems int
	}{{"hello, stdout", true, 0}, {"hello, world", true, 1}, {"hello, stdout", false, 1}} {
		p, _ := fakeServer(t, answer)
		o := ReplayWith(transcript(t, "# t\n-- session --\n> {}\n< "+tt.want+"\n"), p, Options{Text: tt.text})
		if len(o.Problems) != tt.problems {
			t.Errorf("%q, text %v: %d problems, want %d: %q", tt.want, tt.text, len(o.Problems), tt.problems, o.Problems)
		}
	}
}
