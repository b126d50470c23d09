// Package header checks the x-mcp-header annotations of a tool's input
// schema and encodes argument values for the Mcp-Param-{Name} HTTP headers
// of the 2026-07-28 Streamable HTTP transport.
//
// # Admission
//
// [CheckInputSchema] decides whether a tool's inputSchema may be listed: every
// x-mcp-header annotation must obey the rules below, or the tool definition is
// invalid (HTTP clients drop such tools). Each refusal is an [*Error] that
// names the JSON pointer of the offending schema and wraps one of the rule
// sentinels, so callers match it with errors.Is or errors.As:
//
//   - [ErrName]: the value is a JSON string holding a non-empty RFC 9110
//     token (letters, digits and !#$%&'*+-.^_`|~), so no spaces, no control
//     characters.
//   - [ErrDuplicate]: header names are unique within one inputSchema,
//     compared case-insensitively.
//   - [ErrType]: the annotated property declares "type" as exactly one of
//     "string", "integer" or "boolean". "number" is refused by the
//     specification. A type array (even ["string","null"]) or a missing
//     "type" is refused too: the specification does not say how such a value
//     would be encoded (see the digest's §17 item 12), so we stay strict. The
//     type is read from the property schema itself; a "$ref" is not followed.
//   - [ErrLocation]: the annotated schema is reached from the root through
//     "properties" keywords only (nested objects are fine). Anything under
//     items, prefixItems, additionalProperties, patternProperties, oneOf,
//     anyOf, allOf, not, if, then, else, $defs, definitions,
//     dependentSchemas, contains, propertyNames and the other applicators is
//     refused, and so is an annotation on the root schema itself.
//   - [ErrSensitive]: neither the property name nor the header name may look
//     like a secret (see [DefaultSensitiveNames] and [WithSensitiveNames]).
//
// [CheckOutputSchema] refuses x-mcp-header anywhere in an outputSchema
// ([ErrOutput]): headers only mirror arguments. [Annotations] returns the
// admitted annotations for the HTTP transport. [Verdicts] and
// [OutputVerdicts] list every annotation, admitted or refused, for an audit
// of header names (never values); [Error.ID] names each rule with a stable
// identifier such as "header-type".
//
// # Values
//
// [EncodeValue] turns an argument string into a header value: plain when the
// text is safe visible ASCII, otherwise the sentinel form
// "=?base64?{standard padded base64 of the UTF-8 bytes}?=". [DecodeValue]
// reverses it. [EncodeInteger] and [EncodeBool] convert the other admitted
// types; integers must lie within ±(2^53−1) ([CheckSafeInteger]).
// [ParseInteger] reads an integer header numerically, so "42.0" equals 42 as
// the specification's server-side verification asks.
//
// Decisions where the specification leaves room:
//
//   - A horizontal tab is listed as allowed in plain values but is also a
//     control character; [EncodeValue] always Base64-encodes values holding
//     one, while [DecodeValue] accepts a plain tab on input (the
//     Streamable HTTP transport's value encoding, Mcp-Param-{Name}).
//   - The empty string is encoded as the empty (plain) header value: it holds
//     no unsafe byte and no leading or trailing whitespace. [DecodeValue]
//     also accepts the sentinel form of it, "=?base64??=".
//   - [DecodeValue] refuses plain values with leading or trailing whitespace
//     or with bytes outside visible ASCII, space and tab: an encoder never
//     produces them, and an HTTP parser would have trimmed the whitespace.
package header
