package main

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// connPool is mcpload's own HTTP/1.1 client for one endpoint: a pool of
// persistent TCP connections on which a caller writes a whole request with
// one Write and reads the response with http.ReadResponse in its own
// goroutine. It exists because the instrument must cost little next to
// what it measures: net/http's Transport hands every request to a
// connection's writeLoop and readLoop goroutines and back, and on a small
// machine those wake-ups cost more than many servers take to answer.
//
// A connection is used by one request at a time. Connections are dialled
// when no idle one is left, up to the pool's limit; a caller beyond the
// limit waits for one to be returned. The most recently returned idle
// connection is reused first, so sequential calls stay on one connection.
// do is safe for concurrent use.
type connPool struct {
	addr    string        // the host:port dialled
	host    string        // the Host header
	target  string        // the request target: the URL's path and query
	timeout time.Duration // bound on one request, from taking a connection to reading the body; 0 for none

	slots chan struct{} // one token per connection in use; its capacity is the pool's limit
	mu    sync.Mutex    // guards idle
	idle  []*leanConn   // connections kept alive between requests, the newest last
}

// leanConn is one persistent connection of a connPool.
type leanConn struct {
	nc     net.Conn
	br     *bufio.Reader
	wbuf   []byte // the request being written, kept for the next one
	reused bool   // a request has already been answered on it
}

// maxKeptWriteBuf is the largest write buffer a connection keeps for its
// next request; a big phase's request buffer is let go.
const maxKeptWriteBuf = 64 << 10

// newConnPool returns a pool of up to conns connections to the http URL u,
// each request bounded by timeout (none if timeout is not positive). It
// refuses any other scheme: the client speaks plain HTTP/1.1 only.
func newConnPool(u *url.URL, conns int, timeout time.Duration) (*connPool, error) {
	if u.Scheme != "http" {
		return nil, fmt.Errorf("%s URLs are not supported: mcpload's HTTP client speaks plain HTTP/1.1 (http://) only", u.Scheme)
	}
	if u.Host == "" {
		return nil, errors.New("the URL has no host")
	}
	port := u.Port()
	if port == "" {
		port = "80"
	}
	return &connPool{
		addr:    net.JoinHostPort(u.Hostname(), port),
		host:    u.Host,
		target:  u.RequestURI(),
		timeout: max(timeout, 0),
		slots:   make(chan struct{}, max(conns, 1)),
	}, nil
}

// do sends one request and reads its response and the whole body. header
// holds the request's header lines other than Host and Content-Length,
// each ending in CRLF; body, if not nil, is sent with its Content-Length.
// The returned response's body is already read and closed. An error after
// the response's header returns the response too.
//
// A request that fails before any byte of its response arrives on a
// connection that has already served a request is retried once on a fresh
// connection, since servers close idle keep-alive connections; a timeout
// is not retried.
func (p *connPool) do(method string, header, body []byte) (*http.Response, []byte, error) {
	var deadline time.Time
	if p.timeout > 0 {
		deadline = time.Now().Add(p.timeout)
	}
	p.slots <- struct{}{}
	defer func() { <-p.slots }()
	lc := p.takeIdle()
	for retried := false; ; retried = true {
		if lc == nil {
			var err error
			if lc, err = p.dial(deadline); err != nil {
				return nil, nil, err
			}
		}
		resp, b, keep, early, err := lc.roundTrip(p, method, header, body, deadline)
		if keep {
			p.putIdle(lc)
		} else {
			_ = lc.nc.Close()
		}
		if err != nil && early && lc.reused && !retried && !isTimeout(err) {
			lc = nil
			continue
		}
		return resp, b, err
	}
}

// takeIdle returns the most recently returned idle connection, or nil.
func (p *connPool) takeIdle() *leanConn {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.idle)
	if n == 0 {
		return nil
	}
	lc := p.idle[n-1]
	p.idle[n-1] = nil
	p.idle = p.idle[:n-1]
	return lc
}

// putIdle keeps lc for a later request.
func (p *connPool) putIdle(lc *leanConn) {
	p.mu.Lock()
	p.idle = append(p.idle, lc)
	p.mu.Unlock()
}

// closeIdle closes the connections not in use.
func (p *connPool) closeIdle() {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, lc := range idle {
		_ = lc.nc.Close()
	}
}

// dial opens a new connection, by deadline if it is set.
func (p *connPool) dial(deadline time.Time) (*leanConn, error) {
	d := net.Dialer{Timeout: 10 * time.Second, Deadline: deadline}
	nc, err := d.Dial("tcp", p.addr)
	if err != nil {
		return nil, err
	}
	return &leanConn{nc: nc, br: bufio.NewReaderSize(nc, 16<<10)}, nil
}

// roundTrip writes one request on lc and reads its response. keep reports
// whether lc may carry another request; early, that the request failed
// before any byte of the response was read.
func (lc *leanConn) roundTrip(p *connPool, method string, header, body []byte, deadline time.Time) (resp *http.Response, b []byte, keep, early bool, err error) {
	if err := lc.nc.SetDeadline(deadline); err != nil {
		return nil, nil, false, true, err
	}
	w := append(lc.wbuf[:0], method...)
	w = append(w, ' ')
	w = append(w, p.target...)
	w = append(w, " HTTP/1.1\r\nHost: "...)
	w = append(w, p.host...)
	w = append(w, "\r\n"...)
	w = append(w, header...)
	if body != nil {
		w = append(w, "Content-Length: "...)
		w = strconv.AppendInt(w, int64(len(body)), 10)
		w = append(w, "\r\n"...)
	}
	w = append(w, "\r\n"...)
	w = append(w, body...)
	_, err = lc.nc.Write(w)
	if cap(w) <= maxKeptWriteBuf {
		lc.wbuf = w[:0]
	} else {
		lc.wbuf = nil
	}
	if err != nil {
		return nil, nil, false, true, err
	}
	if _, err := lc.br.Peek(1); err != nil {
		return nil, nil, false, true, err
	}
	for {
		resp, err = http.ReadResponse(lc.br, nil)
		if err != nil {
			return nil, nil, false, false, err
		}
		// Skip interim responses (100 Continue, 103 Early Hints).
		if resp.StatusCode >= 200 || resp.StatusCode == http.StatusSwitchingProtocols {
			break
		}
	}
	lc.reused = true
	b, err = readBody(resp)
	// Bytes beyond the response mean the exchange is out of step.
	keep = err == nil && !resp.Close && lc.br.Buffered() == 0
	return resp, b, keep, false, err
}

// isTimeout reports whether err is a deadline's expiry.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
