package mcphttp

import (
	"net/http"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/header"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/mcp"
)

// Rejection categories, as logged.
const (
	catMissing    = "missing"
	catDuplicated = "duplicated"
	catMalformed  = "malformed"
	catMismatch   = "mismatch"
	catUnexpected = "unexpected" // present although the body has no value
)

// headerError is a failed header parity check: the header's name and the
// category, never its value (they go to logs).
type headerError struct {
	name     string // as the specification spells it
	category string
}

// message is the JSON-RPC error message: it names the header.
func (e *headerError) message() string {
	var what string
	switch e.category {
	case catMissing:
		what = "is required but missing"
	case catDuplicated:
		what = "appears more than once"
	case catMalformed:
		what = "has a malformed value"
	case catUnexpected:
		what = "is present but the body has no value for it"
	default:
		what = "does not match the body"
	}
	return "header mismatch: the " + e.name + " header " + what
}

// checkParity checks the headers of a modern POST against its message as
// the server routed it (mcp.Routed), as the 2026-07-28 Streamable HTTP
// transport requires: MCP-Protocol-Version equals _meta's protocolVersion,
// Mcp-Method the method (required on requests), Mcp-Name the member the
// method names its target by (the name of tools/call and prompts/get, the
// URI of resources/read, the taskId of the tasks extension's methods: the
// transport's Routing Headers), and each Mcp-Param-{Name} the argument
// annotated with x-mcp-header: Name, for a tool the caller may see (an
// unknown or hidden tool is the Endpoint's -32602). Header names match
// case-insensitively; values are decoded (base64 sentinel) before they are
// compared, integers numerically. A body value that is absent or null
// wants no header; one that is present wants it.
func checkParity(hd http.Header, rt *mcp.Routed, isRequest bool) *headerError {
	if e := checkString(hd, hdrProtocolVersion, "MCP-Protocol-Version", rt.Version, true, true, false); e != nil {
		return e
	}
	if e := checkMethod(hd, rt.Method, isRequest); e != nil {
		return e
	}
	if rt.Named == "" {
		return nil
	}
	if e := checkString(hd, hdrName, "Mcp-Name", rt.Name, false, true, true); e != nil {
		return e
	}
	if len(rt.Headers) == 0 {
		return nil
	}
	return checkParams(paramHeaders(hd), rt.Headers, rt.Arguments)
}

// checkString compares a header with a body value that should be a JSON
// string. With required, the header must be present even when the body has
// no value (and may be); with withBody, it must be present when the body
// has one; with encoded, its value is decoded first. A body value that is
// not a string is left to the Endpoint, which refuses it.
func checkString(hd http.Header, key, name string, body json.RawMessage, required, withBody, encoded bool) *headerError {
	vs := hd.Values(key)
	if len(vs) > 1 {
		return &headerError{name, catDuplicated}
	}
	if isAbsent(body) {
		if len(vs) == 1 && !required {
			return &headerError{name, catUnexpected}
		}
		if len(vs) == 0 && required {
			return &headerError{name, catMissing}
		}
		return nil
	}
	if len(vs) == 0 {
		if withBody {
			return &headerError{name, catMissing}
		}
		return nil
	}
	want, ok := jsonString(body)
	if !ok {
		return nil
	}
	got := vs[0]
	if encoded {
		var err error
		if got, err = header.DecodeValue(got); err != nil {
			return &headerError{name, catMalformed}
		}
	}
	if got != want {
		return &headerError{name, catMismatch}
	}
	return nil
}

// checkMethod compares Mcp-Method with the method: required on requests,
// allowed on notifications.
func checkMethod(hd http.Header, method string, isRequest bool) *headerError {
	vs := hd.Values(hdrMethod)
	switch {
	case len(vs) > 1:
		return &headerError{"Mcp-Method", catDuplicated}
	case len(vs) == 0 && isRequest:
		return &headerError{"Mcp-Method", catMissing}
	case len(vs) == 1 && vs[0] != method:
		return &headerError{"Mcp-Method", catMismatch}
	}
	return nil
}

// jsonString decodes a JSON string value; ok is false for anything else.
func jsonString(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if str, next, ok := jsonx.ScanString(raw, 0, jsonx.Lenient); ok && next == len(raw) {
		return str.Text(raw), true
	}
	var s string // not what the scanner expects (spaces after it, say)
	return s, json.Unmarshal(raw, &s) == nil
}

// paramHeaders collects the Mcp-Param-* headers by lower-cased {Name}.
func paramHeaders(hd http.Header) map[string][]string {
	var out map[string][]string
	for k, vs := range hd {
		if len(k) > len(hdrParamPrefix) && strings.EqualFold(k[:len(hdrParamPrefix)], hdrParamPrefix) {
			if out == nil {
				out = map[string][]string{}
			}
			n := strings.ToLower(k[len(hdrParamPrefix):])
			out[n] = append(out[n], vs...)
		}
	}
	return out
}

// checkParams checks every annotated argument against its header.
func checkParams(got map[string][]string, anns []header.Annotation, args json.RawMessage) *headerError {
	for _, a := range anns {
		name := "Mcp-Param-" + a.Header
		vs := got[strings.ToLower(a.Header)]
		body := jsonx.At(args, a.Path)
		switch {
		case len(vs) > 1:
			return &headerError{name, catDuplicated}
		case isAbsent(body) && len(vs) == 1:
			return &headerError{name, catUnexpected}
		case isAbsent(body):
			continue
		case len(vs) == 0:
			return &headerError{name, catMissing}
		}
		if cat := compareValue(vs[0], body); cat != "" {
			return &headerError{name, cat}
		}
	}
	return nil
}

// compareValue compares one Mcp-Param value with the argument's JSON
// value by the argument's kind; it returns the failure category, "" when
// they are equal.
func compareValue(h string, body json.RawMessage) string {
	v, err := header.DecodeValue(h)
	if err != nil {
		return catMalformed
	}
	switch jsonx.FirstByte(body) {
	case '"':
		var s string
		if json.Unmarshal(body, &s) != nil || s != v {
			return catMismatch
		}
	case 't', 'f':
		b, err := header.ParseBool(v)
		if err != nil {
			return catMalformed
		}
		if b != (string(body) == "true") {
			return catMismatch
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n, err := header.ParseInteger(v)
		if err != nil {
			return catMalformed
		}
		if want, err := header.ParseInteger(string(body)); err != nil || n != want {
			return catMismatch
		}
	default:
		return catMismatch // an object or array: no header can mirror it
	}
	return ""
}

// isAbsent reports a missing or null body value.
func isAbsent(v json.RawMessage) bool { return v == nil || string(v) == "null" }
