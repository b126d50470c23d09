// Package callctx carries the server's side of a call in progress through
// a handler's context, between package mcp, which puts it there, and
// package tool, whose hooks (RequestFrom, ReportProgress, Logger) read it
// through an interface of their own. Neither package exports the plumbing.
package callctx

import "context"

// Key is the context key under which a context carries its call. A
// context type that is itself the call (mcp's, which spares every call
// the allocation of With) answers Value(Key{}) with itself.
type Key struct{}

// With returns a context carrying call.
func With(ctx context.Context, call any) context.Context {
	return context.WithValue(ctx, Key{}, call)
}

// From returns the call ctx carries, or nil.
func From(ctx context.Context) any { return ctx.Value(Key{}) }
