package client

import (
	"context"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// Middleware wraps what the client sends: every request (CallTool, the
// list iterators, ReadResource, Call, ...) and the notifications it sends
// of its own accord (roots list_changed). Given the handler that comes
// after it, it returns one that may inspect the request, change its
// params, answer it itself (a test double, a cache of one's own), refuse
// it, or call next and inspect or change the result. Give them in
// Options.Middleware; the first is outermost.
//
// The chain runs outside the client's own machinery: the 2026-07-28
// response cache, the era's _meta, input_required rounds and the Admit
// and Consume gates are inside next or after it, so a result a
// middleware returns is still checked by the gates. A listen stream
// (Listen) does not go through it: it lasts as long as its caller wants.
type Middleware func(next Handler) Handler

// Handler sends one request or notification: a request's result as the
// server wrote it, or an error (a *jsonrpc.Error for the server's error
// response); a notification's result is nil.
type Handler func(ctx context.Context, req *Request) (json.RawMessage, error)

// Request is what the client sends, as a Middleware sees it. A middleware
// may replace Params; the other fields describe the connection.
type Request struct {
	// Method is the method.
	Method string
	// Params are the params as encoded (a progress token in _meta when
	// the call asked for progress), nil for none. The era's own _meta
	// keys (2026-07-28's protocol version, capabilities, client info) are
	// added after the chain.
	Params json.RawMessage
	// Era and Revision are the connection's.
	Era      protocol.Era
	Revision string
	// Server is the server's serverInfo.
	Server protocol.Implementation

	notification bool
	c            *Client
	token        json.RawMessage                           // the progress token in Params, if any
	progress     func(protocol.ProgressNotificationParams) // hears it
}

// IsNotification reports whether the request is a notification.
func (r *Request) IsNotification() bool { return r.notification }

// chainOf builds the handler Options.Middleware wraps around send.
func chainOf(mws []Middleware) Handler {
	if len(mws) == 0 {
		return nil
	}
	h := Handler(sendRequest)
	for i := len(mws) - 1; i >= 0; i-- {
		if h = mws[i](h); h == nil {
			panic(fmt.Sprintf("client: Options.Middleware[%d] returned a nil Handler", i))
		}
	}
	return h
}

// newRequest describes what the client is about to send.
func (c *Client) newRequest(method string, params json.RawMessage, notification bool) *Request {
	s := c.sess()
	return &Request{Method: method, Params: params, Era: s.Era(), Revision: s.Revision(), Server: s.ServerInfo(),
		notification: notification, c: c}
}

// sendRequest is the end of the chain.
func sendRequest(ctx context.Context, req *Request) (json.RawMessage, error) {
	if req.notification {
		var params any
		if req.Params != nil {
			params = req.Params
		}
		return nil, req.c.sess().Notify(ctx, req.Method, params)
	}
	return req.c.send(ctx, req.Method, req.Params, req.token, req.progress)
}
