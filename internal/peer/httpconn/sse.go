package httpconn

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// errEventTooLarge: an SSE line or event passed the reader's bound.
var errEventTooLarge = errors.New("an SSE event is larger than the limit")

// event is one dispatched Server-Sent Event.
type event struct {
	typ  string // the event field, "" when none was given
	data []byte // the data lines joined with "\n"; never aliased by a later event
}

// sseReader parses a text/event-stream body as the WHATWG HTML standard
// (§9.2 Server-sent events) defines it: lines end with CRLF, LF or CR; a
// line starting with ':' is a comment; "field: value" loses one space after
// the colon; data lines accumulate; a blank line dispatches the event; id
// and retry update the reader's state whether or not an event follows; a
// leading BOM is skipped; an event the stream ends in the middle of is not
// dispatched. Every line and every event's data is bounded by max bytes. It
// is not safe for concurrent use.
type sseReader struct {
	br  *bufio.Reader
	max int

	lastID string        // the last event id set by an id field
	retry  time.Duration // the last retry field, 0 when none
	// truncated reports that the stream ended in the middle of an event.
	truncated bool

	started bool   // the BOM check is done
	skipLF  bool   // the last line ended with CR: an LF next is part of it
	line    []byte // the line being read
	data    []byte // the data buffer of the event being read
	hasData bool   // a data field was seen since the last dispatch
	typ     string // the event type buffer
	fields  bool   // any field was seen since the last dispatch
}

// newSSEReader reads events from r, each line and event at most max bytes.
func newSSEReader(r io.Reader, max int) *sseReader {
	return &sseReader{br: bufio.NewReaderSize(r, 32<<10), max: max}
}

// reset goes on reading from another body (a stream resumed with
// Last-Event-ID), keeping the last event id and the retry hint.
func (r *sseReader) reset(body io.Reader) {
	r.br.Reset(body)
	r.started, r.skipLF, r.truncated = false, false, false
	r.line, r.data, r.hasData, r.typ, r.fields = r.line[:0], nil, false, "", false
}

// next returns the next event whose data buffer is not empty. At the end
// of the stream it returns io.EOF (truncated tells whether an event was cut
// short); a read error is returned as it is, and a line or event over the
// bound is errEventTooLarge.
func (r *sseReader) next() (event, error) {
	for {
		line, err := r.readLine()
		if err != nil {
			if err == io.EOF && (r.fields || len(line) > 0) {
				r.truncated = true
			}
			return event{}, err
		}
		if ev, ok, err := r.field(line); err != nil || ok {
			return ev, err
		}
	}
}

// field processes one line; ok reports a dispatched event.
func (r *sseReader) field(line []byte) (ev event, ok bool, err error) {
	if len(line) == 0 {
		return r.dispatch()
	}
	if line[0] == ':' {
		return event{}, false, nil
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		value = bytes.TrimPrefix(value, []byte(" "))
	}
	r.fields = true
	switch string(name) {
	case "data":
		if len(r.data)+len(value)+1 > r.max {
			return event{}, false, fmt.Errorf("%w (%d bytes)", errEventTooLarge, r.max)
		}
		r.data = append(append(r.data, value...), '\n')
		r.hasData = true
	case "event":
		r.typ = string(value)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			r.lastID = string(value)
		}
	case "retry":
		if ms, err := strconv.ParseUint(string(value), 10, 32); err == nil && isDigits(value) {
			r.retry = time.Duration(ms) * time.Millisecond
		}
	}
	return event{}, false, nil
}

// dispatch ends the event being read: one with data is returned, one
// without is dropped (the type buffer is cleared either way).
func (r *sseReader) dispatch() (event, bool, error) {
	data, has, typ := r.data, r.hasData, r.typ
	r.data, r.hasData, r.typ, r.fields = nil, false, "", false
	if !has {
		return event{}, false, nil
	}
	return event{typ: typ, data: data[:len(data)-1]}, true, nil
}

// isDigits reports whether b is one or more ASCII digits.
func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// readLine returns the next line without its end. At the end of the
// stream it returns the unfinished line, if any, with io.EOF.
func (r *sseReader) readLine() ([]byte, error) {
	r.line = r.line[:0]
	for {
		if r.br.Buffered() == 0 {
			if _, err := r.br.Peek(1); err != nil {
				return r.line, err
			}
		}
		if !r.started {
			r.started = true
			if bom, _ := r.br.Peek(3); string(bom) == "\xEF\xBB\xBF" {
				r.br.Discard(3)
				continue
			}
		}
		chunk, _ := r.br.Peek(r.br.Buffered())
		if r.skipLF {
			r.skipLF = false
			if chunk[0] == '\n' {
				r.br.Discard(1)
				continue
			}
		}
		i := bytes.IndexAny(chunk, "\r\n")
		end := i
		if i < 0 {
			end = len(chunk)
		}
		if len(r.line)+end > r.max+len("data: ") {
			return nil, fmt.Errorf("%w (%d bytes)", errEventTooLarge, r.max)
		}
		r.line = append(r.line, chunk[:end]...)
		if i < 0 {
			r.br.Discard(end)
			continue
		}
		r.skipLF = chunk[i] == '\r'
		r.br.Discard(i + 1)
		return r.line, nil
	}
}
