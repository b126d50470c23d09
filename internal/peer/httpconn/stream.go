package httpconn

import (
	"context"
	"io"
	"net/http"
	"time"
)

// resume reconnects a legacy request's stream that ended early: after the
// retry hint (defaultRetry without one, at most maxRetry) a GET with
// Last-Event-ID, which the server answers with the rest of that stream. It
// returns the new body, or false when the request is done: cancelled, or
// failed (the failure was delivered).
func (c *Conn) resume(cl *call, r *sseReader) (io.ReadCloser, bool) {
	wait := r.retry
	if wait <= 0 {
		wait = defaultRetry
	}
	t := time.NewTimer(min(wait, maxRetry))
	defer t.Stop()
	select {
	case <-t.C:
	case <-cl.ctx.Done():
		return nil, false
	}
	hd := c.getHeader()
	hd.Set(hdrLastEventID, r.lastID)
	req, err := c.newRequest(cl.ctx, http.MethodGet, nil, hd)
	if err != nil {
		return nil, false
	}
	resp, err := c.client.Do(req)
	if err != nil {
		c.broke(cl, err)
		return nil, false
	}
	if !ok(resp.StatusCode) || mediaType(resp.Header.Get("Content-Type")) != typeStream {
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, excerptBytes))
		c.unanswered(cl, "the %s answering %s ended before its response, and the GET resuming it after event %s was answered %s",
			typeStream, cl.out.method, clipQuote(r.lastID), describe(resp, b))
		return nil, false
	}
	return resp.Body, true
}

// getHeader returns the headers of a GET of the legacy session.
func (c *Conn) getHeader() http.Header {
	hd := c.baseHeader()
	hd.Set("Accept", typeStream)
	c.sessionHeaders(hd)
	return hd
}

// listen opens the legacy session's GET stream of the server's own
// messages (list_changed, resource updates, and the requests a server
// makes outside any request's stream) on a goroutine, once, unless
// Options.NoStream. A server without one answers 405, which is fine. It
// returns once the GET is answered (its status and headers), or after
// streamWait, or when ctx ends: a server may send its requests on that
// stream as soon as the session is initialized (Sending Messages to the
// Client, Listening for Messages from the Server), and drops what it
// cannot send, so the session's first calls wait until it is open.
func (c *Conn) listen(ctx context.Context) {
	c.mu.Lock()
	tried := c.listening
	c.listening = true
	c.mu.Unlock()
	if tried || c.opts.NoStream || c.enter() != nil {
		return
	}
	opened := make(chan struct{})
	go func() {
		defer c.wg.Done()
		c.readGET(opened)
	}()
	t := time.NewTimer(streamWait)
	defer t.Stop()
	select {
	case <-opened:
	case <-t.C:
	case <-ctx.Done():
	case <-c.life.Done():
	}
}

// readGET reads the GET stream until it ends or the Conn closes; it
// closes opened once the GET is answered or failed.
func (c *Conn) readGET(opened chan<- struct{}) {
	req, err := c.newRequest(c.life, http.MethodGet, nil, c.getHeader())
	if err != nil {
		close(opened)
		return
	}
	resp, err := c.client.Do(req)
	close(opened)
	if err != nil {
		return // the server is gone: the requests say so
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusMethodNotAllowed:
		return
	case !ok(resp.StatusCode) || mediaType(resp.Header.Get("Content-Type")) != typeStream:
		b, _ := io.ReadAll(io.LimitReader(resp.Body, excerptBytes))
		c.problem("the GET for the session's stream of server messages was answered %s; a server answers it with %s, or with 405 Method Not Allowed when it has none",
			describe(resp, b), typeStream)
		return
	}
	err = c.events(nil, newSSEReader(resp.Body, c.opts.MaxMessageBytes))
	if err != nil && err != io.EOF && c.life.Err() == nil {
		c.problem("the session's GET stream broke: %v", err)
	}
}

// endSession DELETEs the legacy session, bounded by Options.CloseTimeout;
// whatever the answer (405 included: the server keeps its sessions), the
// Conn is done with it.
func (c *Conn) endSession() {
	ctx, cancel := context.WithTimeout(context.Background(), c.opts.CloseTimeout)
	defer cancel()
	hd := c.baseHeader()
	c.sessionHeaders(hd)
	req, err := c.newRequest(ctx, http.MethodDelete, nil, hd)
	if err != nil {
		return
	}
	if resp, err := c.client.Do(req); err == nil {
		io.Copy(io.Discard, io.LimitReader(resp.Body, excerptBytes))
		resp.Body.Close()
	}
}
