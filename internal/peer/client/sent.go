package client

import (
	"context"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// sentKey keys the hook of WithSent in a context.
type sentKey struct{}

// WithSent returns a context whose calls report each request id they send
// to f, before the request is written: a subscriptions/listen stream's
// notifications carry its request's id as their subscriptionId, so the
// caller learns it here before any can arrive. f must not block.
func WithSent(ctx context.Context, f func(jsonrpc.ID)) context.Context {
	return context.WithValue(ctx, sentKey{}, f)
}

// sent calls the hook of WithSent in ctx, if any.
func sent(ctx context.Context, id jsonrpc.ID) {
	if f, ok := ctx.Value(sentKey{}).(func(jsonrpc.ID)); ok {
		f(id)
	}
}
