// Package review holds the contract reviewer's rules: pure functions over
// the raw JSON another MCP server sent, which decide whether a client may
// admit what it lists and consume what it answers. `mcpwire check` and
// mcptest's Check call them; they do no I/O, start nothing and keep no
// state, and each call is independent, so one bad descriptor never stops
// the review of the others. Every function takes the negotiated revision
// ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25" or
// "2026-07-28": protocol.Revisions, spelled as dates) and returns nil
// when all is well, or one [Problem] per finding, each with a stable rule
// id (the Rule* constants) and a JSON pointer. Sections named below are
// the specification's.
//
// # Admit: [Tool]
//
//   - name: present, a string of 1 to 128 of A-Z, a-z, 0-9, '_', '-' and
//     '.' (Tools, "Tool Names"), the rule our server applies at
//     registration (contract.ValidName).
//   - title and description strings; annotations an object whose
//     readOnlyHint, destructiveHint, idempotentHint and openWorldHint are
//     booleans and whose title is a string (Tools, "Tool Annotations").
//   - inputSchema: present and not null, compiles as JSON Schema (2020-12
//     unless "$schema" names another dialect, as the Tools page says; by
//     package schema, as the server compiles its own), and its root
//     declares "type": "object".
//   - outputSchema: absent before 2025-06-18 (its changelog adds it);
//     when present, an object that compiles, whose root declares "type":
//     "object" on 2025-06-18 and 2025-11-25 (Tools, "Output Schema";
//     TypeScript clients of those revisions reject the whole tools/list
//     otherwise).
//   - x-mcp-header (the Streamable HTTP transport of 2026-07-28): package
//     header decides every rule, as it does for the server (placement
//     through "properties" only, type string, integer or boolean, names
//     unique ignoring case, the RFC 9110 token grammar, the sensitive-name
//     policy with header.DefaultSensitiveNames), and any annotation in an
//     outputSchema is refused. The rule ids are package header's (header.Error.ID).
//     [Headers] lists every annotation with its verdict, names and pointers
//     only, whatever the revision.
//
// # Admit: [Resource], [ResourceTemplate], [Prompt] (Resources, Prompts)
//
// A resource has an absolute uri (the server's rule, package contract) and
// a non-empty name; a template a uriTemplate that package uritemplate (RFC
// 6570, the parser the server matches with) accepts, and a name; a prompt a
// non-empty name and arguments, when present, an array of objects with
// non-empty names used once and a boolean required. Optional members must
// have their types; resource annotations follow the content rules.
//
// # Consume: [Result] (Tools, "Tool Result")
//
//   - On 2026-07-28, resultType is present and a string; a result whose
//     resultType is not "complete" is not reviewed (see below).
//   - content is an array; each block is an object of a type the revision
//     defines (text; image; audio from 2025-03-26; resource_link from
//     2025-06-18; resource), with its required members: text; base64 data
//     (the server's rule: standard alphabet, padded, no line breaks) and a
//     mimeType of the block's family (image/*, audio/*); a resource_link's
//     absolute uri and name; an embedded resource's absolute uri and
//     exactly one of text and blob, the blob in base64. Annotations are
//     checked by the server's rules (audience, priority in [0, 1],
//     lastModified RFC 3339).
//   - isError is a boolean.
//   - structuredContent: absent before 2025-06-18, an object on the 2025
//     revisions, any JSON value on 2026-07-28 (Tools, "Structured
//     Content"); valid against the descriptor's outputSchema; present when
//     the tool declares one.
//   - a text block holds structuredContent's JSON serialisation (Tools,
//     "Structured Content": "SHOULD also return the serialized JSON in a
//     text block").
//
// # Decisions where the specification leaves room
//
//   - The name rule is applied in every revision. Tools, "Tool Names",
//     states it (as a SHOULD) for 2025-11-25 and 2026-07-28; older
//     revisions state none, but the hosts that call tools by name refuse
//     the same characters.
//   - x-mcp-header exists only in 2026-07-28: on an earlier connection it
//     is an unknown keyword that JSON Schema ignores and no client acts
//     on, so [Tool] applies its rules on 2026-07-28 only. The transport is
//     not known here; since the tools/list set must not vary by connection,
//     a tool an HTTP client must drop is refused on stdio too.
//   - The outputSchema root rule applies to the 2025 revisions only: the
//     2026-07-28 schema allows "any valid JSON Schema 2020-12" (Tools,
//     "Output Schema").
//   - isError and structuredContent: Tools, "Structured Content", says a
//     tool with an outputSchema MUST return conforming structured results
//     and that structuredContent must conform to the outputSchema when one
//     is defined. Nothing exempts error results, so an isError result that
//     carries structuredContent is validated like any other; but an isError
//     result is not a structured result, so it may leave structuredContent
//     out (the server's own contract check draws the same line). Its
//     meta-only exemption (a permission probe's reply) is not applied: the
//     reviewer never sends a probe.
//   - A 2026-07-28 result with resultType "input_required" or an extension
//     value (such as "task") is not a CallToolResult: [Result] skips it
//     and returns nil, and [ResultType] tells the caller, who knows which
//     extensions it declared and must answer the input requests to get a
//     result to review. A missing resultType is reported, and the result is
//     then reviewed as "complete", as clients must read it.
//   - The text mirror is any text block whose text is JSON equal to
//     structuredContent as JSON Schema's "const" compares (package schema
//     does the comparing): key order, white space and the spelling of
//     numbers do not matter. On the 2025 revisions a structuredContent of
//     the form {"result": v} is also mirrored by v's serialisation: the
//     wrapping by which servers (ours, FastMCP) hand a 2025 client, which
//     needs an object, a value of another type.
//   - An optional member given as null has the wrong type: the schemas
//     define it as absent or of its type, and the TypeScript clients'
//     validators refuse null.
//   - Empty image or audio data is refused, as the server refuses it:
//     zero bytes are not an image.
//   - Prompt names are not held to the tool name rule: the specification
//     sets none for them.
//   - A schema that package schema cannot compile is refused, including
//     one with a "$ref" outside the document: clients must not fetch
//     network references (Tools, "Tool"), so they cannot validate against it.
//   - Of two header names that differ only in case, the one met first in
//     schema order (object keys sorted, as package header walks) is "ok"
//     and the other is refused with "header-duplicate".
//   - Members a revision does not define are not reported, except where
//     clients of that revision fail on them: outputSchema and
//     structuredContent before 2025-06-18, audio before 2025-03-26 and
//     resource_link before 2025-06-18 (a content union that does not know
//     the type refuses the whole result).
//
// # Messages
//
// A message is one sentence. It names members, header names, pointers and
// rules; it never repeats a header value or an argument value, and what it
// quotes from the reviewed JSON (a tool name, a block type) is clipped as
// package clip clips client input.
package review
