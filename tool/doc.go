// Package tool defines MCP tools as Go values: a descriptor (name,
// description, schemas, annotations), a handler, the result it returns, and
// every content block type a result can carry.
//
// A handler never knows which protocol era or revision it serves; the mcp
// package projects its result for each client. A handler reports a failure
// of the tool itself (bad input it rejects, an API that failed) with an
// isError result: return ErrorResult, or just a Go error, which becomes an
// isError result carrying its text. Only a *jsonrpc.Error returned on
// purpose becomes a JSON-RPC error response.
package tool
