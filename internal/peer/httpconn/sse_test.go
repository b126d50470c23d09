package httpconn

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// readAll reads every event of s, each line and event bounded by max.
func readAll(r io.Reader, max int) (events []event, sr *sseReader, err error) {
	sr = newSSEReader(r, max)
	for {
		ev, err := sr.next()
		if err != nil {
			return events, sr, err
		}
		events = append(events, ev)
	}
}

// show renders events for comparison.
func show(events []event) string {
	var b strings.Builder
	for _, ev := range events {
		b.WriteString(strconv.Quote(ev.typ) + ":" + strconv.Quote(string(ev.data)) + ";")
	}
	return b.String()
}

// The reader parses streams as the WHATWG standard does, whole or a byte
// at a time.
func TestSSE(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
		lastID         string
		retry          time.Duration
		truncated      bool
	}{
		{name: "one", in: "data: {}\n\n", want: `"":"{}";`},
		{name: "no space", in: "data:{}\n\n", want: `"":"{}";`},
		{name: "one space only", in: "data:  x\n\n", want: `"":" x";`},
		{name: "lines joined", in: "data: a\ndata: b\n\n", want: `"":"a\nb";`},
		{name: "typed", in: "event: message\ndata: a\n\n", want: `"message":"a";`},
		{name: "type resets", in: "event: x\ndata: a\n\ndata: b\n\n", want: `"x":"a";"":"b";`},
		{name: "CRLF", in: "data: a\r\n\r\ndata: b\r\n\r\n", want: `"":"a";"":"b";`},
		{name: "CR", in: "data: a\r\rdata: b\r\r", want: `"":"a";"":"b";`},
		{name: "comments", in: ": keep-alive\n\n:x\ndata: a\n\n", want: `"":"a";`},
		{name: "BOM", in: "\xEF\xBB\xBFdata: a\n\n", want: `"":"a";`},
		{name: "no data", in: "event: x\nid: 7\n\n", want: ``, lastID: "7"},
		{name: "empty data", in: "id: 1\nretry: 250\ndata: \n\n", want: `"":"";`, lastID: "1", retry: 250 * time.Millisecond},
		{name: "field without colon", in: "data\n\n", want: `"":"";`},
		{name: "unknown field", in: "foo: bar\ndata: a\n\n", want: `"":"a";`},
		{name: "bad retry", in: "retry: 1x\nretry: -5\ndata: a\n\n", want: `"":"a";`},
		{name: "id with NUL ignored", in: "id: 1\nid: a\x00b\ndata: a\n\n", want: `"":"a";`, lastID: "1"},
		{name: "empty id", in: "id: 1\nid\ndata: a\n\n", want: `"":"a";`, lastID: ""},
		{name: "cut short", in: "data: a\n\ndata: b\n", want: `"":"a";`, truncated: true},
		{name: "cut mid line", in: "data: a\n\ndat", want: `"":"a";`, truncated: true},
		{name: "colon in value", in: "data: {\"a\":1}\n\n", want: `"":"{\"a\":1}";`},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(c.in), iotest.OneByteReader(strings.NewReader(c.in))} {
				events, sr, err := readAll(r, 1<<10)
				if err != io.EOF {
					t.Fatalf("error %v", err)
				}
				if got := show(events); got != c.want || sr.lastID != c.lastID || sr.retry != c.retry || sr.truncated != c.truncated {
					t.Errorf("got %s id %q retry %v truncated %v; want %s id %q retry %v truncated %v",
						got, sr.lastID, sr.retry, sr.truncated, c.want, c.lastID, c.retry, c.truncated)
				}
			}
		})
	}
}

// An event, or a line, over the bound fails the stream; at the bound it
// passes.
func TestSSEBound(t *testing.T) {
	for _, c := range []struct {
		in   string
		fail bool
	}{
		{"data: " + strings.Repeat("a", 15) + "\n\n", false},
		{"data: " + strings.Repeat("a", 16) + "\n\n", true},
		{"data: " + strings.Repeat("a", 7) + "\ndata: " + strings.Repeat("b", 8) + "\n\n", true},
		{": " + strings.Repeat("c", 64) + "\n\n", true},
	} {
		_, _, err := readAll(strings.NewReader(c.in), 16)
		if got := errors.Is(err, errEventTooLarge); got != c.fail {
			t.Errorf("%q: error %v, want too large %v", c.in, err, c.fail)
		}
	}
}

// A resumed stream keeps the last id and the retry hint, and starts its
// lines afresh.
func TestSSEReset(t *testing.T) {
	sr := newSSEReader(strings.NewReader("id: 4\nretry: 9\ndata: a\n\ndata: cut"), 64)
	for {
		if _, err := sr.next(); err != nil {
			break
		}
	}
	sr.reset(strings.NewReader("\xEF\xBB\xBFdata: b\n\n"))
	ev, err := sr.next()
	if err != nil || string(ev.data) != "b" || sr.lastID != "4" || sr.retry != 9*time.Millisecond || sr.truncated {
		t.Fatalf("event %q, %v, id %q, retry %v", ev.data, err, sr.lastID, sr.retry)
	}
}

// reference parses a whole stream as the WHATWG standard describes it,
// naively: line ends normalised, then split.
func reference(in []byte, max int) (events []event, lastID string, tooLarge bool) {
	in = bytes.TrimPrefix(in, []byte("\xEF\xBB\xBF"))
	s := strings.ReplaceAll(strings.ReplaceAll(string(in), "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(s, "\n")
	last := lines[len(lines)-1] // it has no end: dropped, unless too long
	lines = lines[:len(lines)-1]
	defer func() {
		if !tooLarge && len(last) > max+len("data: ") {
			tooLarge = true // too long a line fails even unfinished
		}
	}()
	var data []byte
	has, typ := false, ""
	for _, line := range lines {
		if len(line) > max+len("data: ") {
			return events, lastID, true
		}
		switch {
		case line == "":
			if has {
				events = append(events, event{typ: typ, data: data[:len(data)-1]})
			}
			data, has, typ = nil, false, ""
			continue
		case line[0] == ':':
			continue
		}
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch name {
		case "data":
			if len(data)+len(value)+1 > max {
				return events, lastID, true
			}
			data, has = append(append(data, value...), '\n'), true
		case "event":
			typ = value
		case "id":
			if !strings.Contains(value, "\x00") {
				lastID = value
			}
		}
	}
	return events, lastID, false
}

// FuzzSSE: the reader agrees with the naive reference on every stream,
// whole or a byte at a time, and never passes its bound.
func FuzzSSE(f *testing.F) {
	for _, s := range []string{
		"data: {}\n\n", "event: message\nid: 1\ndata: a\ndata: b\n\n", "data: a\r\n\r\n", "data: a\r\r",
		": c\n\nretry: 5\n\n", "\xEF\xBB\xBFdata:x\n\n", "data\n\nid\n", "data: a\r", "data: a\r\n", "\r\n\r\n\n",
	} {
		f.Add([]byte(s))
	}
	const max = 64
	f.Fuzz(func(t *testing.T, in []byte) {
		want, wantID, tooLarge := reference(in, max)
		for _, r := range []io.Reader{bytes.NewReader(in), iotest.OneByteReader(bytes.NewReader(in))} {
			got, sr, err := readAll(r, max)
			if tooLarge != errors.Is(err, errEventTooLarge) || (!tooLarge && err != io.EOF) {
				t.Fatalf("error %v, want too large %v", err, tooLarge)
			}
			if show(got) != show(want) {
				t.Fatalf("events %s, want %s", show(got), show(want))
			}
			if !tooLarge && sr.lastID != wantID {
				t.Fatalf("last id %q, want %q", sr.lastID, wantID)
			}
			for _, ev := range got {
				if len(ev.data) > max {
					t.Fatalf("an event of %d bytes", len(ev.data))
				}
			}
		}
	})
}
