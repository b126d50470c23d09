// Package tool defines MCP tools as Go values: a descriptor (name,
// description, schemas, annotations), a handler, the result it returns, and
// every content block type a result can carry; and it enforces the contract
// around a tool's handler: what goes in is validated, what comes out is
// checked.
//
// # Typed tools
//
// [New] builds a tool from one typed function:
//
//	type AddArgs struct {
//		A int `json:"a" description:"First addend."`
//		B int `json:"b" description:"Second addend."`
//	}
//	type Sum struct {
//		Sum int `json:"sum"`
//	}
//	add := tool.New("add", "Adds two integers.",
//		func(ctx context.Context, in AddArgs) (Sum, error) {
//			return Sum{in.A + in.B}, nil
//		}, tool.WithTitle("Add"))
//
// The input schema is inferred from the argument type and the output schema
// from the result type (package schema: json names, omitempty for optional
// members, description/enum/minimum/maximum/pattern/format/default from
// struct tags, nested and recursive types, "additionalProperties": false
// unless [AllowAdditionalProperties]). Schemas can also be given as JSON
// ([WithInputSchema], [WithOutputSchema]); JSON Schema 2020-12 is the
// default dialect and an explicit "$schema" is honoured. A handler that
// returns *Result builds its own content blocks and has no output schema.
// A raw [Handler] on a [Tool] literal remains available.
//
// # The contract
//
// A Tool is a plain value: the server enforces its contract. Registering it
// (mcp.Server.AddTool) is the one place a tool can fail: the name must match
// ^[A-Za-z0-9_.-]{1,128}$, both schemas must compile (with
// github.com/kaptinlin/jsonschema), the input schema's root must be
// {"type":"object"}, the x-mcp-header admission rules of package header
// apply, and what [New] could not describe is its [Tool.Err]. A bad tool
// is refused with an error naming the tool and the rule; the other tools
// still load.
//
// Before the handler runs, the arguments are validated against the input
// schema: arguments that break it never reach the handler, and the client
// gets an isError result listing the violations with their JSON pointers
// and rules (the first schema.MaxViolations of them, then how many more;
// quoted input clipped). Arguments a typed handler cannot decode get the
// same kind of list, in JSON terms, never Go's (see [New]). Defaults are
// filled in before validation. A schema that accepts any object costs
// nothing per call, and an empty arguments object is answered from a value
// computed at registration.
//
// After the handler runs, every content block is checked (required fields
// present, base64 that decodes, absolute URIs, annotations in range), and
// structured content, which may be any JSON value (object, array, string,
// number, boolean or null), is validated against the output schema. A tool
// with an output schema must return structured content unless its result
// is an isError result or a [MetaResult]. A result that breaks the contract
// is never sent: the client gets an isError result naming the violation,
// and the server logs it. To fail inside the contract, a typed handler
// returns its value together with [Fail]: the isError result still carries
// conforming structured content, and that is validated too.
//
// A handler reports a failure of the tool itself with an isError result:
// return [ErrorResult], or just a Go error, which becomes an isError result
// carrying its text. Only a *jsonrpc.Error returned on purpose becomes a
// JSON-RPC error response.
//
// # One tool, every era
//
// A handler never knows which revision it serves: the mcp package projects
// each descriptor and result for the client. 2026-07-28 clients get output
// schemas and structured values as they are. The choices for the legacy
// revisions:
//
//   - Structured output. 2026-07-28 allows any JSON Schema as outputSchema
//     and any JSON value as structuredContent; 2025-06-18 and 2025-11-25
//     require an object for both, and TS SDK 1.x clients reject a whole
//     tools/list page when one tool breaks that. Of the two alternatives
//     (wrap, or leave both out and rely on the text block) we wrap: a tool
//     whose output schema S is not object-rooted is advertised to those
//     clients as
//     {"type":"object","properties":{"result":S},"required":["result"]},
//     and its structured value v is sent as {"result": v}. The client keeps
//     a machine-readable, schema-described result; the text block carries
//     the unwrapped JSON. A non-object value of a tool without an output
//     schema is wrapped the same way.
//   - 2024-11-05 and 2025-03-26 define neither outputSchema nor
//     structuredContent: they get the text blocks only, and every
//     structured result carries its serialized JSON in one.
//   - Content blocks a revision does not define become a text block that
//     describes them: audio before 2025-03-26 ("[audio content (audio/wav,
//     N bytes of base64) omitted: ...]"), resource_link before 2025-06-18
//     ("[resource link] name <uri> (mimeType): description"). Block _meta and
//     annotations.lastModified are dropped before 2025-06-18, titles before
//     2025-06-18, icons before 2025-11-25.
//
// # Content blocks
//
// [NewText], [NewImage], [NewAudio], [NewResourceLink], [NewEmbeddedText]
// and [NewEmbeddedBlob] build blocks; [Audience], [Priority],
// [LastModified] and [BlockMeta] set their annotations and _meta. The
// block types are package protocol's wire types under shorter names
// ([Text] is protocol.TextContent, and so on), so a block a handler
// returns is the block the server checks, projects and sends.
package tool
