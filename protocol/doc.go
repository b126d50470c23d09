// Package protocol is mcpwire's one wire model: a Go type for every MCP
// message shape, in both eras. The server (package mcp) encodes its results
// and notifications through these types, the tests decode what the server
// wrote into them, and clients (the contract reviewer, users' tests) read
// other servers with them. It is public on purpose: a Go program talking to
// an MCP server, or testing one, needs exactly these types.
//
// The types follow the 2026-07-28 schema: the params of the client
// requests and of the notifications, the server results, and every
// building block they are made of (capabilities, tools, resources, prompts,
// content blocks, _meta objects, multi round-trip input requests and
// responses). The legacy revisions (2024-11-05 to 2025-11-25) use the same
// types with fewer members set: what a legacy revision lacks (resultType,
// the result _meta's serverInfo, cache hints: the [Envelope] and
// [CacheHints] every result embeds) is simply left zero and so not encoded;
// the shapes only the legacy handshake has are in legacy.go
// ([InitializeRequestParams], [InitializeResult], [SetLevelRequestParams]).
// Which members a revision carries is the server's decision (package mcp
// projects per revision), not these types'. The JSON-RPC envelope around
// params and results (id, method, "jsonrpc") is package jsonrpc's; the
// package names each method in a constant (MethodCallTool,
// NotificationProgress, ...).
//
// Each type encodes to and decodes from exactly the JSON the schema
// defines; the tests decode every official example of the revision into
// these types, encode it again and compare the two as JSON.
//
// # Presence
//
// Fields whose presence carries meaning keep it: optional booleans and
// numbers are pointers ("isError": false stays present), optional objects
// and arrays use omitzero (a nil map or slice is left out, an empty one is
// sent as {} or []), and cursors are *string because "" is a valid cursor.
// Arrays the schema requires are of type [List], which sends a nil slice as
// [] rather than null. Values that may be any JSON (input and output
// schemas, structuredContent, tool arguments, _meta values, error data) stay
// raw as [json.RawMessage].
//
// # Unions
//
// A union is a struct with one pointer per variant, exactly one of which is
// set: [ContentBlock], [SamplingContentBlock], [ResourceContents],
// [CompletionReference], [ElicitRequestParams], [PrimitiveSchemaDefinition],
// [InputRequest], [InputResponse] and [Outcome]. Encoding a union with no
// variant or several fails. Decoding picks the variant from the
// discriminating member ("type", "method", "mode", "resultType") or, where
// the schema has none, from the members only one variant has; a value no
// variant matches is an error, never silently dropped.
//
// Variant types that the schema tags with a constant ("type": "text", ...)
// have a field for it of an unexported type, which always encodes as the
// constant (in a zero value too: TextContent{Text: "x"} encodes with
// "type": "text") and refuses any other value when decoding; nobody sets
// it. [ResourceLink] (which is a [Resource]) and [RequestedSchema] write
// theirs in their own codec. An [InputRequest] writes the method of its
// variant around the variant's params. Where
// the tag is not one constant it is a field: [NumberSchema.Type] ("number"
// or "integer") and [ElicitRequestFormParams.Mode] (optional "form").
//
// # Strictness
//
// Decoding does not validate: required members may be missing, and
// strings are not checked against their formats (package validate and the
// schema checker do that). It does reject a wrong discriminator and a
// _meta value of the wrong type under a reserved key. Member names match case-insensitively, as with
// encoding/json: the JSON-RPC layer (package jsonrpc) refuses look-alike
// keys only in the envelope and in params, results and errors themselves,
// so a reader that must not confuse keys deeper down (the server decoding
// its params, package mcp) matches them exactly itself.
package protocol
