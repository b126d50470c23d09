package httpconn

import (
	"bytes"
	"errors"
	"io"
	"net/http"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// jsonBody reads an application/json answer: one message, which should
// be the response.
func (c *Conn) jsonBody(cl *call, resp *http.Response) {
	b, err := readBody(resp, c.opts.MaxMessageBytes)
	switch {
	case err != nil:
		c.broke(cl, err)
		return
	case len(b) > c.opts.MaxMessageBytes:
		c.unanswered(cl, "the %s response to %s is larger than %d bytes", typeJSON, cl.out.method, c.opts.MaxMessageBytes)
		return
	case len(bytes.TrimSpace(b)) == 0:
		c.unanswered(cl, "the HTTP response to %s was %s with an empty body", cl.out.method, resp.Status)
		return
	}
	msg, err := jsonrpc.Decode(b)
	if de := decodeError(err); de != nil && !de.ID.IsValid() {
		c.unanswered(cl, "the %s body answering %s is no JSON-RPC message: %s", typeJSON, cl.out.method, de.Err.Message)
		return
	}
	if !c.handleMessage(cl, msg, err) {
		return
	}
	if !cl.answered {
		c.unanswered(cl, "the %s body answering %s held no response to id %s", typeJSON, cl.out.method, cl.id)
	}
}

// handle decodes one message of a request's answer (cl nil: of the GET
// stream), notes what it settles and delivers it. It reports false when
// the Conn closed.
func (c *Conn) handle(cl *call, data []byte) bool {
	msg, err := jsonrpc.Decode(data)
	return c.handleMessage(cl, msg, err)
}

// handleMessage is handle for a message decoded already.
func (c *Conn) handleMessage(cl *call, msg jsonrpc.Message, err error) bool {
	if de := decodeError(err); de != nil {
		if cl != nil && de.ID.IsValid() && de.ID.Key() == cl.id.Key() {
			cl.answered = true
		}
		return c.deliver(nil, de)
	}
	if r, isResp := msg.(*jsonrpc.Response); isResp && cl != nil && r.ID.Key() == cl.id.Key() {
		cl.answered = true
		c.observe(cl, r)
	}
	return c.deliver(msg, nil)
}

// decodeError returns jsonrpc.Decode's error as the *jsonrpc.DecodeError
// it is (a parse error for anything else), nil for nil.
func decodeError(err error) *jsonrpc.DecodeError {
	if err == nil {
		return nil
	}
	var de *jsonrpc.DecodeError
	if !errors.As(err, &de) {
		de = &jsonrpc.DecodeError{Err: jsonrpc.NewError(jsonrpc.CodeParseError, "parse error: %v", err)}
	}
	return de
}

// observe notes what a request's response settles: the legacy revision
// initialize negotiated, the annotations of the tools listed.
func (c *Conn) observe(cl *call, r *jsonrpc.Response) {
	if r.Error != nil {
		return
	}
	switch cl.out.method {
	case protocol.MethodInitialize:
		var res struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if json.Unmarshal(r.Result, &res) == nil && res.ProtocolVersion != "" {
			c.mu.Lock()
			c.version, c.legacy = res.ProtocolVersion, true
			c.mu.Unlock()
		}
	case protocol.MethodListTools:
		c.learn(r.Result)
	}
}

// refused reads a non-2xx answer to a request. A JSON-RPC response with
// the request's id (a 2026-07-28 error is 400 or 404) is delivered as it
// is. Otherwise the request failed at the HTTP level: server/discover is
// answered with an error made of the status (a legacy server refuses the
// probe that way, and the client falls back to initialize), any other
// request with a decode error naming it.
func (c *Conn) refused(cl *call, resp *http.Response) {
	if resp.StatusCode == http.StatusUnauthorized {
		c.mu.Lock()
		c.unauthorized, c.challenge = true, resp.Header.Get("WWW-Authenticate")
		c.mu.Unlock()
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, int64(c.opts.MaxMessageBytes)+1))
	if err == nil && len(b) <= c.opts.MaxMessageBytes && mediaType(resp.Header.Get("Content-Type")) == typeJSON {
		if r, derr := jsonrpc.Decode(b); derr == nil {
			if r, isResp := r.(*jsonrpc.Response); isResp && r.ID.Key() == cl.id.Key() {
				cl.answered = true
				c.deliver(r, nil)
				return
			}
		}
	}
	if cl.out.method == protocol.MethodDiscover {
		cl.answered = true
		c.deliver(&jsonrpc.Response{ID: cl.id, Error: statusError(resp, b)}, nil)
		return
	}
	if resp.StatusCode == http.StatusNotFound && cl.out.header.Get(hdrSessionID) != "" {
		// The Streamable HTTP transport of 2025-11-25 (Session
		// Management): 404 to a request with a session id means the
		// server ended the session; the client must start a new one.
		c.mu.Lock()
		c.expired = true
		c.mu.Unlock()
		c.unanswered(cl, "%s: the server ended the session (HTTP 404 to %s)", errExpiredText, cl.out.method)
		return
	}
	c.unanswered(cl, "the HTTP response to %s was %s", cl.out.method, describe(resp, b))
}

// unanswered fails a request whose answer held no response: a decode
// error with its id, which the client fails the call with and records.
func (c *Conn) unanswered(cl *call, format string, args ...any) {
	cl.answered = true
	e := jsonrpc.NewError(jsonrpc.CodeInternalError, format, args...)
	e.Data = failureData
	c.mu.Lock()
	c.lastFailure = e.Message
	c.mu.Unlock()
	c.deliver(nil, &jsonrpc.DecodeError{ID: cl.id, Err: e})
}

// errExpiredText starts the failure of a request whose session the
// server ended (see Expired).
const errExpiredText = "session expired"

// Expired reports whether the server ended the legacy session: a request
// carrying its id was answered 404. Every later request fails; the caller
// starts a new session.
func (c *Conn) Expired() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.expired
}

// failureData marks the decode errors unanswered makes (never sent).
var failureData = json.RawMessage(`{"httpconn":"no response"}`)

// LastFailure returns the message of the last request that got no
// response (what Failure finds in its error), "" when none did: the
// reason a handshake failed, when the client's error only quotes it
// clipped.
func (c *Conn) LastFailure() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lastFailure
}

// Unauthorized reports whether a request was answered 401 Unauthorized,
// with the WWW-Authenticate challenge of the last such answer ("" when it
// sent none): the endpoint wants a token, or refused the one sent (the
// specification's Authorization section).
func (c *Conn) Unauthorized() (challenge string, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.challenge, c.unauthorized
}

// Failure finds, in err's chain, the decode error a request got because
// its HTTP answer held no response to it (see the package documentation),
// and returns its message: the status, content type and body excerpt, or
// what was wrong with the stream.
func Failure(err error) (string, bool) {
	var de *jsonrpc.DecodeError
	if errors.As(err, &de) && de.Err != nil && bytes.Equal(de.Err.Data, failureData) {
		return de.Err.Message, true
	}
	return "", false
}

// readBody reads a response body of at most limit bytes (one more tells
// that it is longer): in one allocation when its length is known.
func readBody(resp *http.Response, limit int) ([]byte, error) {
	if n := resp.ContentLength; n >= 0 && n <= int64(limit) {
		b := make([]byte, n)
		_, err := io.ReadFull(resp.Body, b)
		return b, err
	}
	return io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
}
