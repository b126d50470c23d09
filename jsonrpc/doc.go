// Package jsonrpc holds the JSON-RPC 2.0 layer of mcpwire: message types,
// request ids, wire errors and a strict codec.
//
// Decoding is strict on purpose. "jsonrpc" must be exactly "2.0", ids are
// integers or strings kept byte for byte as sent, and an object anywhere in
// a message that repeats a key, or holds two keys that differ only in case
// ("name" and "Name"), makes the message invalid. Such look-alike keys let
// one value pass validation while another is dispatched (go-sdk#805), and
// most Go JSON decoders match keys case-insensitively, so the check is done
// here, in one pass over the raw bytes, before any decoder sees them.
//
// Error responses for messages whose id cannot be read omit the "id" member
// instead of sending "id": null: the MCP schemas (2025-11-25 and later) make
// the id optional in error responses and never allow null ids, so omitting it
// is the form every MCP schema revision accepts (DIGEST §17.7).
//
// Params and results stay raw ([json.RawMessage]) until the method that owns
// them decodes them.
package jsonrpc
