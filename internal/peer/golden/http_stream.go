package golden

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"
)

// respStream is a response being read: its events (an event stream) or
// its whole body.
type respStream struct {
	resp      *http.Response
	cancel    context.CancelFunc
	sse       bool
	events    chan sseEvent
	body      chan bodyRead
	quit      chan struct{} // closed by close: the reader stops
	done      chan struct{} // closed when the reader returned
	err       error         // the reader's error, set before events closes
	closed    bool
	rev       string // the revision of its messages
	sid       string // the request's Mcp-Session-Id
	minted    string // the Mcp-Session-Id an initialize response gave
	ownID     string // the request's id (compact JSON), "" for none
	ownMethod string
	ownBatch  map[string]string // a batch's request ids → methods
}

type bodyRead struct {
	data []byte
	err  error
}

func newRespStream(resp *http.Response, cancel context.CancelFunc) *respStream {
	s := &respStream{resp: resp, cancel: cancel, quit: make(chan struct{}), done: make(chan struct{})}
	s.sse = strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	if s.sse {
		s.events = make(chan sseEvent, 64)
		go s.readEvents()
	} else {
		s.body = make(chan bodyRead, 1)
		go func() {
			defer close(s.done)
			b, err := io.ReadAll(resp.Body)
			s.body <- bodyRead{b, err}
		}()
	}
	return s
}

// readEvents parses the event stream until its end or close.
func (s *respStream) readEvents() {
	defer close(s.done)
	defer close(s.events)
	br := bufio.NewReader(s.resp.Body)
	var ev sseEvent
	emit := func() bool {
		select {
		case s.events <- ev:
			ev = sseEvent{}
			return true
		case <-s.quit:
			return false
		}
	}
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
			switch {
			case line == "":
				if len(ev.fields) > 0 && !emit() {
					return
				}
			case strings.HasPrefix(line, ":"): // a comment: skipped
			default:
				ev.fields = append(ev.fields, parseField(line))
			}
		}
		if err != nil {
			if len(ev.fields) > 0 {
				ev.partial = true
				emit()
			}
			if !errors.Is(err, io.EOF) {
				s.err = err
			}
			return
		}
	}
}

// next returns the next event, io.EOF at the end of the stream, or
// ErrTimeout.
func (s *respStream) next(timeout time.Duration) (sseEvent, error) {
	if s == nil || !s.sse {
		return sseEvent{}, io.EOF
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case ev, ok := <-s.events:
		if !ok {
			if s.err != nil && !s.closed {
				return sseEvent{}, s.err
			}
			return sseEvent{}, io.EOF
		}
		return ev, nil
	case <-t.C:
		return sseEvent{}, ErrTimeout
	}
}

// readAll returns the whole body of a response that is not a stream.
func (s *respStream) readAll(timeout time.Duration) ([]byte, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case b := <-s.body:
		return b.data, b.err
	case <-t.C:
		return nil, ErrTimeout
	}
}

// close ends the response from the client side and waits for its reader.
func (s *respStream) close() {
	if s == nil || s.closed {
		return
	}
	s.closed = true
	close(s.quit)
	s.cancel()
	s.resp.Body.Close()
	<-s.done
}
