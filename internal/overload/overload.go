// Package overload carries a transport's refusals for its own limits to
// the server's observer (mcp.Options.Observer) without a public method on
// the server: package mcp sets Report, and the HTTP helper calls it.
package overload

import "context"

// Report tells the observer of server srv (an *mcp.Server), if it has one,
// of a request the transport refused for a limit of its own before the
// server saw it; ctx is the transport's (the HTTP request's), and limit,
// method and transport are as in mcp.Overload. Package mcp sets it when it
// is initialized, so it is never nil where a server exists.
var Report func(ctx context.Context, srv any, limit, method, transport string)
