// Package resource defines MCP resources as Go values: a static resource
// (a URI and a function that reads it) and a resource template (an RFC 6570
// URI template, such as "test://template/{id}/data", whose read function
// gets the variables a concrete URI matched). A server registers them with
// mcp.Server.AddResource and AddResourceTemplate and answers
// resources/list, resources/templates/list and resources/read for them, in
// both eras.
//
// A read returns one or more [Contents], text or binary, built with [Text]
// and [Blob]. Returning an error that wraps [ErrNotFound] answers "no such
// resource" (-32002 for a legacy client, -32602 for a 2026-07-28 one, with
// data.uri either way); a *jsonrpc.Error passes through as it is; any other
// error is an internal error (-32603) whose message is the error's text.
// A read never answers with an empty contents list: returning none is
// reported as an internal error, since the specification forbids an
// empty list for a missing resource.
//
// Template matching is package mcpwire's own (internal/uritemplate), not a
// library's: it is a few hundred lines, matches exactly (a simple {var}
// never spans a "/"; {+path} and {/segments*} say where one may), and is
// fuzzed. See mcp.Server.AddResourceTemplate for the matching rules.
package resource
