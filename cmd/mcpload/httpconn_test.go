package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// rawServer is a hand-written HTTP/1.1 server on a TCP listener, so that a
// test controls every byte of the responses and when connections close.
type rawServer struct {
	t  *testing.T
	ln net.Listener
	// answer returns the raw response to a request whose JSON-RPC id and
	// echo text are given, and whether to close the connection after it;
	// silent leaves the request unanswered (the connection stays open).
	answer func(id json.RawMessage, text string) (resp string, closeAfter, silent bool)
	// idleClose, if set, closes a connection that has been idle this long
	// after a response, without saying so in the response.
	idleClose time.Duration
	// check, if set, is called with every request and its body.
	check func(r *http.Request, body []byte)

	mu       sync.Mutex
	conns    int        // connections accepted
	requests int        // requests read
	open     []net.Conn // every connection, closed at the end of the test
	wg       sync.WaitGroup
}

// start listens on a loopback port and serves until the test ends.
func (s *rawServer) start(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.t, s.ln = t, ln
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns++
			s.open = append(s.open, nc)
			s.mu.Unlock()
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				s.serveConn(nc)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		for _, nc := range s.open {
			nc.Close()
		}
		s.mu.Unlock()
		s.wg.Wait()
	})
	return "http://" + ln.Addr().String() + "/mcp"
}

// serveConn answers the requests of one connection.
func (s *rawServer) serveConn(nc net.Conn) {
	defer nc.Close()
	br := bufio.NewReader(nc)
	for served := 0; ; served++ {
		if s.idleClose > 0 && served > 0 {
			_ = nc.SetReadDeadline(time.Now().Add(s.idleClose))
		}
		r, err := http.ReadRequest(br)
		if err != nil {
			return // EOF, or idle for idleClose
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			s.t.Errorf("reading the request body: %v", err)
			return
		}
		s.mu.Lock()
		s.requests++
		s.mu.Unlock()
		if s.check != nil {
			s.check(r, body)
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Params struct {
				Arguments struct {
					Text string `json:"text"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if err := json.Unmarshal(body, &msg); err != nil {
			s.t.Errorf("request body %q: %v", body, err)
			return
		}
		resp, closeAfter, silent := s.answer(msg.ID, msg.Params.Arguments.Text)
		if silent {
			_, _ = io.Copy(io.Discard, br) // until the client or the test closes it
			return
		}
		if _, err := io.WriteString(nc, resp); err != nil || closeAfter {
			return
		}
	}
}

// counts returns the connections accepted and requests read so far.
func (s *rawServer) counts() (conns, requests int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns, s.requests
}

// echoResult is the JSON-RPC response echoing text to request id.
func echoResult(id json.RawMessage, text string) string {
	t, _ := json.Marshal(text)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":%s}]}}`, id, t)
}

// withLength is a 200 response with a Content-Length body; extra header
// lines, each ending in CRLF, go before it.
func withLength(contentType, extra, body string) string {
	return fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: %s\r\n%sContent-Length: %d\r\n\r\n%s", contentType, extra, len(body), body)
}

// chunked is a 200 response with body sent in two chunks and a trailer.
func chunked(contentType, body string) string {
	half := len(body) / 2
	return fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: %s\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n%x\r\n%s\r\n0\r\nX-Trailer: 1\r\n\r\n",
		contentType, half, body[:half], len(body)-half, body[half:])
}

// TestLeanClient makes sequential echo calls through the lean client
// against servers that answer in the ways HTTP/1.1 allows, and counts the
// connections each needed.
func TestLeanClient(t *testing.T) {
	const calls = 3
	big := strings.Repeat("x", 100<<10) // larger than the connection's read buffer
	for _, tc := range []struct {
		name      string
		text      string
		answer    func(id json.RawMessage, text string) (string, bool, bool)
		idleClose time.Duration
		pause     time.Duration // between calls
		wantConns int
		wantNotes int64 // notifications counted
	}{{
		name: "content-length",
		text: smallText,
		answer: func(id json.RawMessage, text string) (string, bool, bool) {
			return withLength("application/json", "", echoResult(id, text)), false, false
		},
		wantConns: 1,
	}, {
		name: "content-length-big",
		text: big,
		answer: func(id json.RawMessage, text string) (string, bool, bool) {
			return withLength("application/json", "", echoResult(id, text)), false, false
		},
		wantConns: 1,
	}, {
		name: "chunked",
		text: smallText,
		answer: func(id json.RawMessage, text string) (string, bool, bool) {
			return chunked("application/json", echoResult(id, text)), false, false
		},
		wantConns: 1,
	}, {
		name: "chunked-big",
		text: big,
		answer: func(id json.RawMessage, text string) (string, bool, bool) {
			return chunked("application/json", echoResult(id, text)), false, false
		},
		wantConns: 1,
	}, {
		name: "event-stream-notification-first",
		text: smallText,
		answer: func(id json.RawMessage, text string) (string, bool, bool) {
			sse := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n" +
				"event: message\ndata: " + echoResult(id, text) + "\n\n"
			return chunked("text/event-stream", sse), false, false
		},
		wantConns: 1,
		wantNotes: calls,
	}, {
		name: "interim-100-continue",
		text: smallText,
		answer: func(id json.RawMessage, text string) (string, bool, bool) {
			return "HTTP/1.1 100 Continue\r\n\r\n" + withLength("application/json", "", echoResult(id, text)), false, false
		},
		wantConns: 1,
	}, {
		name: "connection-close",
		text: smallText,
		answer: func(id json.RawMessage, text string) (string, bool, bool) {
			return withLength("application/json", "Connection: close\r\n", echoResult(id, text)), true, false
		},
		wantConns: calls,
	}, {
		name: "body-until-close",
		text: smallText,
		answer: func(id json.RawMessage, text string) (string, bool, bool) {
			return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + echoResult(id, text), true, false
		},
		wantConns: calls,
	}, {
		// The server closes idle connections: each call after the first
		// finds its connection closed and is retried on a fresh one.
		name: "idle-close-retry",
		text: smallText,
		answer: func(id json.RawMessage, text string) (string, bool, bool) {
			return withLength("application/json", "", echoResult(id, text)), false, false
		},
		idleClose: 50 * time.Millisecond,
		pause:     250 * time.Millisecond,
		wantConns: calls,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			s := &rawServer{answer: tc.answer, idleClose: tc.idleClose}
			c := newHTTPClient(s.start(t), true, 4, 10*time.Second)
			defer c.endSession()
			params := c.params(tc.text)
			for i := range calls {
				if i > 0 {
					time.Sleep(tc.pause)
				}
				r, err := c.echo(params)
				if err == nil {
					err = checkEcho(r, tc.text)
				}
				if err != nil {
					t.Fatalf("call %d: %v", i+1, err)
				}
				if r.latency() <= 0 {
					t.Errorf("call %d: latency %v", i+1, r.latency())
				}
			}
			conns, requests := s.counts()
			if conns != tc.wantConns || requests != calls {
				t.Errorf("server saw %d connections, %d requests; want %d, %d", conns, requests, tc.wantConns, calls)
			}
			if n := c.anom.notifications.Load(); n != tc.wantNotes {
				t.Errorf("%d notifications, want %d", n, tc.wantNotes)
			}
			if n := c.anom.unmatched.Load() + c.anom.badLines.Load(); n != 0 {
				t.Errorf("%d unmatched or bad messages", n)
			}
		})
	}
}

// TestLeanClientRequest checks the bytes of a modern call: a keep-alive
// POST with exactly the content headers and the MCP headers.
func TestLeanClientRequest(t *testing.T) {
	var got []string
	var mu sync.Mutex
	s := &rawServer{
		answer: func(id json.RawMessage, text string) (string, bool, bool) {
			return withLength("application/json", "", echoResult(id, text)), false, false
		},
		check: func(r *http.Request, body []byte) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, fmt.Sprintf("%s %s %s host=%t", r.Method, r.RequestURI, r.Proto, r.Host != ""))
			for k, v := range r.Header {
				if k == "Content-Length" {
					v = []string{fmt.Sprint(v[0] == fmt.Sprint(len(body)))}
				}
				got = append(got, k+": "+strings.Join(v, ","))
			}
		},
	}
	c := newHTTPClient(s.start(t), true, 1, 10*time.Second)
	defer c.endSession()
	if r, err := c.echo(c.params(smallText)); err != nil || checkEcho(r, smallText) != nil {
		t.Fatalf("echo: %v %v", err, checkEcho(r, smallText))
	}
	slices.Sort(got[1:])
	want := []string{
		"POST /mcp HTTP/1.1 host=true",
		"Accept: application/json, text/event-stream",
		"Content-Length: true",
		"Content-Type: application/json",
		"Mcp-Method: tools/call",
		"Mcp-Name: echo",
		"Mcp-Protocol-Version: " + modernVersion,
	}
	if !slices.Equal(got, want) {
		t.Errorf("request:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLeanClientFailures: a fresh connection closed before any response
// byte fails the call without a retry, and a server that never answers
// fails it with errTimeout once the timeout has passed, in the sequential
// and the concurrent phase and in a whole run.
func TestLeanClientFailures(t *testing.T) {
	t.Run("closed-unanswered", func(t *testing.T) {
		s := &rawServer{answer: func(json.RawMessage, string) (string, bool, bool) { return "", true, false }}
		c := newHTTPClient(s.start(t), true, 4, 10*time.Second)
		defer c.endSession()
		for i := range 2 {
			r, err := c.echo(c.params(smallText))
			if err == nil || r.err == nil || fatal(err) {
				t.Fatalf("call %d: error %v, want a non-fatal error", i+1, err)
			}
		}
		if conns, requests := s.counts(); conns != 2 || requests != 2 {
			t.Errorf("server saw %d connections, %d requests; want 2, 2 (no retry on a fresh connection)", conns, requests)
		}
	})

	const timeout = 300 * time.Millisecond
	silent := func(json.RawMessage, string) (string, bool, bool) { return "", false, true }
	// within runs f and checks that it returns after timeout, and not long
	// after it.
	within := func(t *testing.T, f func()) {
		t.Helper()
		start := time.Now()
		done := make(chan struct{})
		go func() {
			defer close(done)
			f()
		}()
		select {
		case <-done:
		case <-time.After(timeout + 5*time.Second):
			t.Fatal("the driver hangs on a server that does not answer")
		}
		if took := time.Since(start); took < timeout || took > timeout+2*time.Second {
			t.Errorf("took %v with a %v timeout", took, timeout)
		}
	}
	t.Run("timeout-call", func(t *testing.T) {
		s := &rawServer{answer: silent}
		c := newHTTPClient(s.start(t), true, 4, timeout)
		defer c.endSession()
		var r reply
		var err error
		within(t, func() { r, err = c.echo(c.params(smallText)) })
		if !errors.Is(err, errTimeout) || !errors.Is(r.err, errTimeout) {
			t.Errorf("error %v, want %v", err, errTimeout)
		}
		if _, requests := s.counts(); requests != 1 {
			t.Errorf("server saw %d requests, want 1 (a timeout is not retried)", requests)
		}
	})
	t.Run("timeout-concurrent", func(t *testing.T) {
		s := &rawServer{answer: silent}
		c := newHTTPClient(s.start(t), true, 8, timeout)
		defer c.endSession()
		var res *RateResult
		within(t, func() { res = runConcurrent(c, 100, 8) })
		if res.Failures != 8 || res.OK != 0 || !strings.Contains(res.FirstError, errTimeout.Error()) {
			t.Errorf("result %+v, want 8 timeouts", res)
		}
	})
	t.Run("timeout-run", func(t *testing.T) {
		s := &rawServer{answer: silent}
		cfg := httpConfig(s.start(t), eraModern)
		cfg.timeout = timeout
		var err error
		within(t, func() { _, err = runHTTP(cfg) })
		if !errors.Is(err, errTimeout) {
			t.Errorf("run: %v, want %v", err, errTimeout)
		}
	})
}

// TestLeanClientConnections: the pool never holds more connections than
// its limit, and the concurrent phase's callers each get one of their own.
func TestLeanClientConnections(t *testing.T) {
	answer := func(id json.RawMessage, text string) (string, bool, bool) {
		time.Sleep(time.Millisecond)
		return withLength("application/json", "", echoResult(id, text)), false, false
	}
	t.Run("limit", func(t *testing.T) {
		s := &rawServer{answer: answer}
		c := newHTTPClient(s.start(t), true, 3, 10*time.Second)
		defer c.endSession()
		var wg sync.WaitGroup
		errs := make(chan error, 12*5)
		for range 12 {
			wg.Go(func() {
				for range 5 {
					r, err := c.echo(c.params(smallText))
					if err == nil {
						err = checkEcho(r, smallText)
					}
					if err != nil {
						errs <- err
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if conns, requests := s.counts(); conns < 1 || conns > 3 || requests != 60 {
			t.Errorf("server saw %d connections, %d requests; want at most 3, 60", conns, requests)
		}
	})
	t.Run("concurrent", func(t *testing.T) {
		// The first 8 requests are answered once all 8 have arrived: the
		// callers must have a connection each.
		var mu sync.Mutex
		n := 0
		all := make(chan struct{})
		s := &rawServer{answer: func(id json.RawMessage, text string) (string, bool, bool) {
			mu.Lock()
			n++
			if n == 8 {
				close(all)
			}
			first := n <= 8
			mu.Unlock()
			if first {
				select {
				case <-all:
				case <-time.After(5 * time.Second):
					t.Error("8 callers do not have 8 requests in flight")
				}
			}
			return answer(id, text)
		}}
		c := newHTTPClient(s.start(t), true, 8, 10*time.Second)
		defer c.endSession()
		if res := runConcurrent(c, 200, 8); res.OK != 200 {
			t.Fatalf("result %+v", res)
		}
		if conns, _ := s.counts(); conns != 8 {
			t.Errorf("server saw %d connections, want 8", conns)
		}
	})
}

// TestHTTPRefusesHTTPS: mcpload's client speaks plain HTTP only and says
// so, without dialling.
func TestHTTPRefusesHTTPS(t *testing.T) {
	var errOut strings.Builder
	if code := mainErr([]string{"-url", "https://127.0.0.1:1/mcp"}, io.Discard, &errOut); code != 2 {
		t.Errorf("mainErr = %d, want 2", code)
	}
	if !strings.Contains(errOut.String(), "https URLs are not supported") {
		t.Errorf("stderr %q, want it to refuse https", errOut.String())
	}
}
