package middleware

import (
	"context"
	"fmt"
	"slices"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/ratelimit"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
)

// applies reports whether a middleware limited to methods (all when
// none) applies to method.
func applies(methods []string, method string) bool {
	return len(methods) == 0 || slices.Contains(methods, method)
}

// RateLimit bounds the requests of the methods named (every request when
// none) to perSecond per caller (by its subject; anonymous callers share
// one budget), with bursts of twice that. A request beyond it gets -32603
// with data.reason "rate_limited" before anything runs. Notifications
// are not limited. mcp.Options.ToolCallRate is RateLimit(n, "tools/call").
func RateLimit(perSecond int, methods ...string) mcp.Middleware {
	limit := ratelimit.NewPerKey(perSecond)
	return func(next mcp.Handler) mcp.Handler {
		return func(ctx context.Context, req *mcp.Request) (json.RawMessage, error) {
			if !req.IsNotification() && applies(methods, req.Method) {
				key := ""
				if req.Caller != nil {
					key = req.Caller.Subject
				}
				if !limit.Allow(key) {
					return nil, jsonrpc.NewError(jsonrpc.CodeInternalError,
						"rate limited: too many %s requests from this caller; retry in a second", req.Method).
						WithData(map[string]string{"reason": "rate_limited"})
				}
			}
			return next(ctx, req)
		}
	}
}

// Timeout bounds how long a request of the methods named (every method
// when none, subscriptions/listen aside, whose stream lasts as long as
// its client wants) may run: past d the client gets -32603 with
// data.reason "timeout" at once, and the handler's context ends with
// context.DeadlineExceeded (a handler that ignores it runs on, and what it
// returns is dropped). mcp.Options.CallTimeout is the server-wide bound
// that also counts the wait for a worker; Timeout is per method.
func Timeout(d time.Duration, methods ...string) mcp.Middleware {
	return func(next mcp.Handler) mcp.Handler {
		return func(ctx context.Context, req *mcp.Request) (json.RawMessage, error) {
			if req.IsNotification() || !applies(methods, req.Method) ||
				(len(methods) == 0 && req.Method == protocol.MethodSubscriptionsListen) {
				return next(ctx, req)
			}
			ctx, cancel := context.WithTimeout(ctx, d)
			defer cancel()
			type answer struct {
				raw json.RawMessage
				err error
			}
			done := make(chan answer, 1)
			go func() {
				defer func() {
					if p := recover(); p != nil {
						done <- answer{err: jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: the handler for %s panicked", req.Method)}
					}
				}()
				raw, err := next(ctx, req)
				done <- answer{raw, err}
			}()
			select {
			case a := <-done:
				return a.raw, a.err
			case <-ctx.Done():
				if context.Cause(ctx) != context.DeadlineExceeded {
					return nil, context.Cause(ctx) // the call itself ended (cancelled, closed)
				}
				return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "request timeout: no answer within %s", d).
					WithData(map[string]string{"reason": "timeout"})
			}
		}
	}
}

// MaxResultBytes bounds the encoded size of a request's result to n
// bytes. A tools/call over it gets an isError result saying so (the tool
// ran; its result is what the policy refuses, and a model can adapt, by
// asking for less); any other request gets -32603 with data.reason
// "result_too_large". The result is produced whole first: this bounds
// what goes to the client, not what a handler builds.
func MaxResultBytes(n int) mcp.Middleware {
	return func(next mcp.Handler) mcp.Handler {
		return func(ctx context.Context, req *mcp.Request) (json.RawMessage, error) {
			raw, err := next(ctx, req)
			if err != nil || len(raw) <= n {
				return raw, err
			}
			msg := fmt.Sprintf("the result of %s is %d bytes, over the limit of %d", req.Method, len(raw), n)
			if req.Method != protocol.MethodCallTool {
				return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "%s", msg).
					WithData(map[string]any{"reason": "result_too_large", "size": len(raw), "limit": n})
			}
			isError := true
			return req.Encode(&protocol.CallToolResult{
				Content: protocol.List[protocol.ContentBlock]{{Text: &protocol.TextContent{Text: fmt.Sprintf(
					"the result of tool %q is %d bytes, over this server's limit of %d: ask for less", req.Target, len(raw), n)}}},
				IsError: &isError,
			})
		}
	}
}
