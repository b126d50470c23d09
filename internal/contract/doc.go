// Package contract is a registered tool's compiled contract, the server's
// own state about a tool: its schemas compiled once, the arguments of each
// call validated (defaults filled in) before the handler runs, and each
// result checked (content blocks, structured content against the output
// schema) before it is sent. A tool.Tool stays a plain descriptor; the
// server compiles it at registration (Compile) and runs every call
// through the one Contract it keeps (Call).
//
// Prepare validates with package schema, which reads JSON Schema 2020-12
// and answers the common schemas in one pass over the raw bytes. A result
// that breaks the contract is never sent: the client gets an isError result
// naming each violation, and the server logs the error, which wraps
// ErrContract.
package contract
