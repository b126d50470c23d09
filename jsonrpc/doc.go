// Package jsonrpc holds the JSON-RPC 2.0 layer of mcpwire: message types,
// request ids, wire errors and a strict codec.
//
// Decoding is strict on purpose. "jsonrpc" must be exactly "2.0", ids are
// integers or strings kept byte for byte as sent, and a message must be
// valid UTF-8 JSON nested at most 1000 levels deep (package internal/jsonx
// holds the one scanner that reads it).
//
// # Repeated and look-alike keys
//
// Two rules, applied in one pass over the raw bytes before any decoder
// sees them, make a message invalid (-32600):
//
//   - An object anywhere in the message that repeats a key, compared after
//     unescaping ("id" and "\u0069d" are the same key). Which value counts
//     would depend on the decoder, so one value could pass validation
//     while another is dispatched (go-sdk#805).
//   - Two keys that differ only in case (strings.EqualFold: "name" and
//     "Name") in the envelope (the top-level object) or in an object that
//     is the value of one of its members: the params object's own members
//     ("name" and "Name" in tools/call params, "protocolVersion" and
//     "ProtocolVersion" in initialize params), and likewise those of a
//     result or an error. Most Go JSON decoders match struct fields
//     case-insensitively, and these are the members decoded into structs.
//
// Deeper down, inside _meta, arguments, capabilities and any other nested
// object, keys that differ only in case are accepted, as JSON allows:
// HTTP headers, JSON documents and maps legitimately hold both "ETag" and
// "etag". What reads those objects must match keys exactly (package tool
// decodes arguments by exact key).
//
// Error responses for messages whose id cannot be read omit the "id" member
// instead of sending "id": null: the MCP schemas (2025-11-25 and later) make
// the id optional in error responses and never allow null ids, so omitting it
// is the form every MCP schema revision accepts (JSONRPCErrorResponse in the
// 2025-11-25 and 2026-07-28 schema.json: "id" is optional, and never null).
//
// Params and results stay raw ([json.RawMessage]) until the method that owns
// them decodes them.
package jsonrpc
