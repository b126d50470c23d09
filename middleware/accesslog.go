package middleware

import (
	"context"
	"errors"
	"log/slog"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// Outcomes an access log line gives.
const (
	OutcomeOK           = "ok"           // answered with a result
	OutcomeToolError    = "tool_error"   // a tools/call whose result is an isError one
	OutcomeError        = "error"        // answered with a JSON-RPC error (its code in "code")
	OutcomeNotification = "notification" // a notification, which gets no answer
)

// AccessLog logs one line per request and notification at Info (Warn
// for a JSON-RPC error) once it is answered: "method", "target" (the
// tool, prompt, resource or task it names), "caller" (the subject),
// "era", "id", "duration" and "outcome" (one of the Outcome constants),
// and "code" for an error. It never logs a value of the params or of
// the result: arguments and results carry what users typed and what
// tools found. Put it outermost, so that what the others refuse is
// logged too.
func AccessLog(logger *slog.Logger) mcp.Middleware {
	return func(next mcp.Handler) mcp.Handler {
		return func(ctx context.Context, req *mcp.Request) (json.RawMessage, error) {
			if req.FromServer() { // not an access: the server telling a client
				return next(ctx, req)
			}
			start := time.Now()
			raw, err := next(ctx, req)
			attrs := make([]slog.Attr, 0, 8)
			attrs = append(attrs, slog.String("method", req.Method))
			if req.Target != "" {
				attrs = append(attrs, slog.String("target", req.Target))
			}
			if req.Caller != nil {
				attrs = append(attrs, slog.String("caller", req.Caller.Subject))
			}
			attrs = append(attrs, slog.String("era", req.Era.String()))
			if !req.IsNotification() {
				attrs = append(attrs, slog.String("id", req.ID.String()))
			}
			attrs = append(attrs, slog.Duration("duration", time.Since(start)))
			level, outcome := slog.LevelInfo, OutcomeOK
			switch {
			case req.IsNotification():
				outcome = OutcomeNotification
			case err != nil:
				level, outcome = slog.LevelWarn, OutcomeError
				var je *jsonrpc.Error
				code := int64(jsonrpc.CodeInternalError)
				if errors.As(err, &je) {
					code = je.Code
				}
				attrs = append(attrs, slog.Int64("code", code))
			case isError(raw):
				outcome = OutcomeToolError
			}
			attrs = append(attrs, slog.String("outcome", outcome))
			logger.LogAttrs(ctx, level, "mcp: request", attrs...)
			return raw, err
		}
	}
}

// isError reports whether a result is a tool's isError one.
func isError(raw json.RawMessage) bool {
	f, err := jsonx.Fields(raw, "isError")
	return err == nil && string(f[0]) == "true"
}
