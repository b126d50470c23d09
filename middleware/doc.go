// Package middleware holds stock middlewares for an mcp.Server (see
// mcp.Middleware), each small, each a policy applied to every request
// whatever its tool, era or transport:
//
//   - [RateLimit] bounds the requests of one caller per second;
//   - [Timeout] bounds how long a request may run;
//   - [MaxResultBytes] bounds the size of what a request answers;
//   - [AccessLog] logs one structured line per request, never an
//     argument's value;
//   - [FilterTools] hides tools from the callers a policy says may not
//     see them, and tells a caller of a tool list change only when it
//     can see the tool that changed.
//
// Give them to mcp.NewServer in Options.Middleware, outermost first:
//
//	srv := mcp.NewServer(info, &mcp.Options{Middleware: []mcp.Middleware{
//		middleware.AccessLog(logger),
//		middleware.RateLimit(10, "tools/call"),
//		middleware.Timeout(30*time.Second),
//	}})
//
// A refusal is a JSON-RPC error the client can tell apart by
// data.reason ("rate_limited", "timeout", "result_too_large"), except
// where the tool itself is the thing refused: a tool's result over the
// size limit is an isError result, as a tool's failure is, and a hidden
// tool is an unknown one.
package middleware
