// Package wirecheck validates JSON that an MCP server writes against the
// official MCP schema of the negotiated protocol revision, and then checks
// it strictly: every object key must be declared by the schema.
//
// The official schemas are permissive: most objects allow keys they do not
// declare. A server that claims to speak revision 2024-11-05 but sends a
// Tool with a "title" (added in 2025-06-18) still passes plain schema
// validation. The strict pass closes that gap. It walks the instance
// alongside its definition and reports every key that the definition does
// not list under "properties", unless that place of the schema explicitly
// allows extra keys. A place allows extra keys when
//
//   - its "additionalProperties" is present and is not false (for example
//     the "experimental" and "logging" capabilities, error "data", tool
//     "arguments"); a schema given there is still applied to the extra keys;
//   - it declares no "properties" at all (for example "structuredContent",
//     or the 2026-07-28 MetaObject);
//   - it is the value of a property named "_meta", "inputSchema" or
//     "outputSchema". The spec defines _meta as an open map, and tool
//     schemas as arbitrary JSON Schema, although some revisions' schemas
//     list only a few of their keys. Keys they do list are still checked.
//
// "$ref" and "allOf" are followed and merged. For "anyOf" and "oneOf" the
// strict pass tries every branch that the instance validates against and
// accepts the instance when one of those branches declares all its keys.
//
// Schema validation itself is done by github.com/kaptinlin/jsonschema.
// It reads both dialects the MCP schemas use: draft-07 with "definitions"
// (2024-11-05 to 2025-06-18) and 2020-12 with "$defs" (2025-11-25 and
// later), so the documents are compiled unchanged.
//
// [Checker.ServerMessage] validates one whole line a server wrote: the
// JSON-RPC envelope first, then the result or notification against the
// definition [Methods] maps its method to.
//
// The package is meant for tests: golden transcripts and encoders are checked
// against testdata/schema, a copy of the official schemas.
package wirecheck
