package httpconn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// excerptBytes bounds what is read of a body that is only quoted.
const excerptBytes = 4 << 10

// Write POSTs one message. A request's Write returns once the request is
// written (its answer comes through Read), except for a 2026-07-28
// request while Each runs: its Write returns once it is answered, the
// answer handed to Each's function on the way (see answerNow). A
// notification's or a
// response's once the server answered the POST, which should be 202
// Accepted (anything else is one of Problems). A notifications/cancelled
// first stops reading the stream of the request it names: in the
// 2026-07-28 era that is the cancellation, and nothing is POSTed; in a
// legacy session the notification is POSTed too. ctx bounds the wait. An
// error means the message could not be sent: the Conn is closed, ctx
// ended, or the server could not be reached (which breaks the Conn).
func (c *Conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	body, err := jsonrpc.AppendMessage(make([]byte, 0, sizeHint(msg)), msg)
	if err != nil {
		return fmt.Errorf("httpconn: %w", err)
	}
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if name, why := c.excluded(m); why != nil {
			return c.refuse(m.ID, name, why)
		}
		return c.request(ctx, m, c.prepare(m.Method, m.Params, body))
	case *jsonrpc.Notification:
		if m.Method == protocol.NotificationCancelled && c.cancelled(m.Params) {
			return nil
		}
		return c.send(ctx, c.prepare(m.Method, m.Params, body))
	case *jsonrpc.Response:
		return c.send(ctx, c.prepare("", nil, body))
	}
	return fmt.Errorf("httpconn: a %T is not POSTed: one message per POST", msg)
}

// sizeHint is about the size of msg encoded, so that its body is made in
// one allocation.
func sizeHint(msg jsonrpc.Message) int {
	const envelope = 64 // jsonrpc, id, method and the punctuation
	switch m := msg.(type) {
	case *jsonrpc.Request:
		return envelope + len(m.Method) + len(m.Params)
	case *jsonrpc.Notification:
		return envelope + len(m.Method) + len(m.Params)
	case *jsonrpc.Response:
		return envelope + len(m.Result)
	}
	return envelope
}

// request starts the POST of a request on a goroutine of its own and waits
// until it is written. A 2026-07-28 request, while Each runs, is instead
// POSTed and answered on the caller's goroutine (see answerNow).
func (c *Conn) request(ctx context.Context, m *jsonrpc.Request, out outgoing) error {
	if err := c.enter(); err != nil {
		return err
	}
	cl := c.track(m.ID, out)
	if out.modern && c.eaching() {
		return c.answerNow(ctx, cl)
	}
	go c.run(cl, true)
	select {
	case err := <-cl.sent:
		return err
	case <-ctx.Done():
		cl.cancel()
		return ctx.Err()
	}
}

// answerNow POSTs a 2026-07-28 request and reads its answer on the
// caller's goroutine, handing each message to Each's function there: the
// response is with the caller when Write returns, with no goroutine
// started and none woken. It returns nil once the request was answered
// (a response, or the failure delivered in its place); otherwise why it
// was not. ctx ending closes the request's stream, which is how a
// 2026-07-28 client cancels a request.
func (c *Conn) answerNow(ctx context.Context, cl *call) error {
	stop := context.AfterFunc(ctx, cl.cancel)
	c.run(cl, false)
	stop()
	if cl.answered {
		return nil
	}
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case c.isClosed():
		return transport.ErrClosed
	}
	select {
	case <-c.broken: // the server's connection dropped
		return c.brokenErr
	default:
	}
	if err := <-cl.sent; err != nil { // run always signals
		return err
	}
	return fmt.Errorf("httpconn: the answer to %s ended without a response", cl.out.method)
}

// refuse answers the tools/call id of the excluded tool name with an
// error response of the Conn's own, handed to Read; nothing is POSTed.
func (c *Conn) refuse(id jsonrpc.ID, name string, why error) error {
	if err := c.enter(); err != nil {
		return err
	}
	e := jsonrpc.NewError(jsonrpc.CodeInvalidParams, "tool %q is excluded: its x-mcp-header annotations are invalid: %v", name, why)
	go func() {
		defer c.wg.Done()
		c.deliver(&jsonrpc.Response{ID: id, Error: e}, nil)
	}()
	return nil
}

// send POSTs a notification or a response and checks that it got 202.
func (c *Conn) send(ctx context.Context, out outgoing) error {
	if err := c.enter(); err != nil {
		return err
	}
	defer c.wg.Done()
	pctx, cancel := context.WithCancel(c.life)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	req, err := c.newRequest(pctx, http.MethodPost, bytes.NewReader(out.body), out.header)
	if err != nil {
		return err
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return c.doError(ctx, pctx, err)
	}
	defer resp.Body.Close()
	what := "a response"
	if out.method != "" {
		what = out.method
	}
	switch {
	case resp.StatusCode == http.StatusAccepted:
	case ok(resp.StatusCode):
		c.problem("the POST of %s was answered %s; an accepted notification or response gets 202 Accepted", what, resp.Status)
	default:
		b, _ := io.ReadAll(io.LimitReader(resp.Body, excerptBytes))
		c.problem("the POST of %s was refused: %s", what, describe(resp, b))
	}
	if out.method == protocol.NotificationReady && ok(resp.StatusCode) {
		c.listen(ctx)
	}
	return nil
}

// newRequest builds an HTTP request to the endpoint with hd.
func (c *Conn) newRequest(ctx context.Context, method string, body io.Reader, hd http.Header) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.url, body)
	if err != nil {
		return nil, fmt.Errorf("httpconn: %w", err)
	}
	req.Header = hd
	return req, nil
}

// doError classifies a request that got no HTTP response: the Conn
// closed, the caller gave up (ctx), a sign-in failed (the request is
// refused, the Conn lives on: another request may need no more than it
// has), or the server could not be reached, which breaks the Conn.
func (c *Conn) doError(ctx, pctx context.Context, err error) error {
	switch {
	case c.isClosed():
		return transport.ErrClosed
	case ctx.Err() != nil:
		return ctx.Err()
	case pctx.Err() != nil:
		return pctx.Err()
	case signInFailed(err):
		return err
	}
	c.fail(err)
	return err
}

// signInFailed reports whether err is a sign-in's refusal of one request
// (the HTTP client's RoundTripper, such as package signin's, says so with
// an Unauthorized method): the request failed, the connection did not.
func signInFailed(err error) bool {
	var signIn interface{ Unauthorized() bool }
	return errors.As(err, &signIn) && signIn.Unauthorized()
}

// RequestError is how Read and Each fail one request whose Write
// returned before it failed without an answer, while the Conn lives on:
// its sign-in failed after the first attempt was written. ID is the
// request's; Err says why (the sign-in's error).
type RequestError struct {
	ID  jsonrpc.ID
	Err error
}

func (e *RequestError) Error() string { return e.Err.Error() }
func (e *RequestError) Unwrap() error { return e.Err }

// FailedRequest returns the id of the request that failed.
func (e *RequestError) FailedRequest() jsonrpc.ID { return e.ID }

// cancelled stops reading the stream of the request a
// notifications/cancelled names. It reports whether the notification is
// not to be POSTed: the request was a 2026-07-28 one, where closing its
// stream is the cancellation, or no legacy session is open.
func (c *Conn) cancelled(params json.RawMessage) bool {
	var p struct {
		RequestID jsonrpc.ID `json:"requestId"`
	}
	_ = json.Unmarshal(params, &p)
	c.mu.Lock()
	cl := c.inflight[p.RequestID.Key()]
	legacy := c.legacy
	c.mu.Unlock()
	if cl == nil {
		return !legacy
	}
	cl.cancel()
	return cl.out.modern
}

// ok reports a 2xx status.
func ok(status int) bool { return status >= 200 && status < 300 }
