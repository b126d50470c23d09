package wirecheck

import (
	"bytes"
	"fmt"
	"strconv"

	json "github.com/goccy/go-json"
)

// ServerMessage validates line, one line a server wrote on stdio under
// revision rev. The line may end in a newline but must hold no other.
// It is one of
//
//   - a response to a request of method requestMethod: the envelope is
//     checked as JSONRPCResponse (JSONRPCResultResponse from 2025-11-25),
//     then its result as the method's Result (see Methods). From 2026-07-28
//     a result whose resultType is "input_required" is checked as
//     InputRequiredResult when the method's <Result>Response allows it;
//   - an error response, checked as JSONRPCError (JSONRPCErrorResponse from
//     2025-11-25); whether "id" may be absent is the schema's call: it may
//     from 2025-11-25, it may not before;
//   - a notification, checked as JSONRPCNotification and then as the
//     definition its method maps to; requestMethod is not used;
//   - a request the server sends (ping, sampling/createMessage, ...),
//     checked as JSONRPCRequest and then as the method's definition;
//   - a JSON array of responses, only where the revision defines
//     JSONRPCBatchResponse (2025-03-26); every element is answered to
//     requestMethod (use ServerMessageFunc when they differ).
//
// Older revisions define notifications and requests without "jsonrpc" and
// "id"; those envelope keys, already checked, are dropped before the
// method's definition is applied. Every check is strict (see the package
// documentation). The error is an *Error listing the problems, or a plain
// error when rev is not loaded.
func (c *Checker) ServerMessage(rev, requestMethod string, line []byte) error {
	return c.ServerMessageFunc(rev, func([]byte) string { return requestMethod }, line)
}

// ServerMessageFunc is ServerMessage for lines whose request method the
// caller looks up by id: methodOf gets the JSON text of a response's id
// (e.g. `1` or `"a"`) and returns the method of the request with that id,
// or "" when there is none. It is not called for notifications, requests
// or error responses.
func (c *Checker) ServerMessageFunc(rev string, methodOf func(id []byte) string, line []byte) error {
	r, err := c.revision(rev)
	if err != nil {
		return err
	}
	m := &messageCheck{r: r, methodOf: methodOf, subject: "server message"}
	problems := m.line(line)
	if m.err != nil {
		return m.err
	}
	return errorOf(rev, m.subject, problems)
}

// messageCheck checks one line a server wrote.
type messageCheck struct {
	r        *revision
	methodOf func(id []byte) string
	subject  string // what the line turned out to be, for Error.Subject
	err      error  // internal failure
}

// line checks the framing and dispatches on the line's shape.
func (m *messageCheck) line(line []byte) []Problem {
	line = bytes.TrimSuffix(line, []byte("\n"))
	if bytes.IndexByte(line, '\n') >= 0 {
		return []Problem{{Message: "a stdio message must not contain a newline"}}
	}
	v, err := decodeInstance(line)
	if err != nil {
		return []Problem{{Message: err.Error()}}
	}
	switch x := v.(type) {
	case map[string]any:
		return m.single(x, line, "")
	case []any:
		return m.batch(x, line)
	}
	return []Problem{{Message: "not a JSON-RPC message: neither an object nor an array"}}
}

// batch checks a JSON array of responses.
func (m *messageCheck) batch(arr []any, line []byte) []Problem {
	const def = "JSONRPCBatchResponse"
	m.subject = "batch (" + def + ")"
	if !m.r.hasDef(def) {
		return []Problem{{Message: fmt.Sprintf("a batch (JSON array) is not a message of revision %s", m.r.name)}}
	}
	if problems := m.check(def, line, arr, ""); len(problems) > 0 {
		return problems
	}
	var problems []Problem
	for i, el := range arr {
		obj, _ := el.(map[string]any)
		if _, isResult := obj["result"]; isResult {
			problems = append(problems, m.result(obj, "/"+strconv.Itoa(i))...)
		}
	}
	m.subject = "batch (" + def + ")" // m.result named the element
	return problems
}

// single checks one JSON-RPC object by its shape.
func (m *messageCheck) single(obj map[string]any, raw []byte, base string) []Problem {
	_, hasMethod := obj["method"]
	_, hasID := obj["id"]
	_, hasError := obj["error"]
	_, hasResult := obj["result"]
	switch {
	case hasMethod && hasID:
		return m.message(ServerRequest, "JSONRPCRequest", obj, raw)
	case hasMethod:
		return m.message(ServerNotification, "JSONRPCNotification", obj, raw)
	case hasError:
		def := m.r.pick("JSONRPCErrorResponse", "JSONRPCError")
		m.subject = "error response (" + def + ")"
		return m.check(def, raw, obj, base)
	case hasResult:
		def := m.r.pick("JSONRPCResultResponse", "JSONRPCResponse")
		if problems := m.check(def, raw, obj, base); len(problems) > 0 {
			m.subject = "response (" + def + ")"
			return problems
		}
		return m.result(obj, base)
	}
	return []Problem{{Pointer: base, Message: `not a JSON-RPC message: no "method", "result" or "error"`}}
}

// message checks a notification or request the server wrote: its envelope
// as envelope, then its method's definition.
func (m *messageCheck) message(kind Kind, envelope string, obj map[string]any, raw []byte) []Problem {
	name, _ := obj["method"].(string)
	what := map[Kind]string{ServerNotification: "notification", ServerRequest: "request"}[kind]
	m.subject = fmt.Sprintf("%s %q (%s)", what, name, envelope)
	if kind == ServerRequest && !m.r.hasDef(unionOf(kind)) {
		return []Problem{{Message: fmt.Sprintf("revision %s defines no requests from server to client", m.r.name)}}
	}
	if problems := m.check(envelope, raw, obj, ""); len(problems) > 0 {
		return problems
	}
	if kind == ServerNotification && extensionNotifications[m.r.name][name] {
		// The envelope passed; the params are the extension's, which the
		// schema does not define.
		m.subject = fmt.Sprintf("notification %q (an extension's)", name)
		return nil
	}
	meth, ok := lookupMethod(name, kind)
	if !ok {
		return []Problem{{Pointer: "/method", Message: fmt.Sprintf("unknown server %s method %q", what, name)}}
	}
	if !m.r.defines(meth) {
		return []Problem{{Pointer: "/method", Message: fmt.Sprintf("revision %s defines no server %s %q", m.r.name, what, name)}}
	}
	m.subject = fmt.Sprintf("%s %q (%s)", what, name, meth.Message)
	if problems := extensionMembers(m.r.name, name, obj); len(problems) > 0 {
		return problems
	}
	return m.checkValue(meth.Message, m.r.withoutEnvelope(meth.Message, obj), "")
}

// result checks the result of a response whose envelope passed, by the
// method of the request it answers.
func (m *messageCheck) result(obj map[string]any, base string) []Problem {
	id, err := json.Marshal(obj["id"])
	if err != nil {
		m.err = err
		return nil
	}
	name := m.methodOf(id)
	m.subject = fmt.Sprintf("response to %q", name)
	if name == "" {
		return []Problem{{Pointer: base + "/id", Message: fmt.Sprintf("no request method known for id %s", id)}}
	}
	if extensionResult(m.r.name, name, obj["result"]) {
		m.subject = fmt.Sprintf("response to %q (an extension's Result)", name)
		return m.checkValue("Result", obj["result"], base+"/result")
	}
	meth, ok := lookupMethod(name, ClientRequest)
	if !ok {
		return []Problem{{Pointer: base, Message: fmt.Sprintf("unknown request method %q", name)}}
	}
	if !m.r.defines(meth) {
		return []Problem{{Pointer: base, Message: fmt.Sprintf("revision %s defines no method %q", m.r.name, name)}}
	}
	def := meth.Result
	if res, _ := obj["result"].(map[string]any); res["resultType"] == "input_required" && m.r.allowsInputRequired(def) {
		def = "InputRequiredResult"
	}
	m.subject = fmt.Sprintf("response to %q (%s)", name, def)
	return m.checkValue(def, obj["result"], base+"/result")
}

// checkValue checks a decoded value against definition def.
func (m *messageCheck) checkValue(def string, v any, base string) []Problem {
	raw, err := json.Marshal(v)
	if err != nil {
		m.err = err
		return nil
	}
	return m.check(def, raw, v, base)
}

// check checks an instance against definition def, recording internal
// failures.
func (m *messageCheck) check(def string, raw []byte, v any, base string) []Problem {
	if !m.r.hasDef(def) {
		m.err = fmt.Errorf("wirecheck: %s defines no %q", m.r.name, def)
		return nil
	}
	problems, err := m.r.check(m.r.defLoc(def), raw, v, base)
	if err != nil && m.err == nil {
		m.err = err
	}
	return problems
}

// pick returns the first of names the revision defines.
func (r *revision) pick(names ...string) string {
	for _, n := range names {
		if r.hasDef(n) {
			return n
		}
	}
	return names[len(names)-1]
}

// withoutEnvelope returns obj without the JSON-RPC envelope keys "jsonrpc"
// and "id" when definition def does not declare them (the pre-2025-11-25
// request and notification definitions leave them to the envelope).
func (r *revision) withoutEnvelope(def string, obj map[string]any) map[string]any {
	n, _ := r.defs()[def].(map[string]any)
	props, _ := n["properties"].(map[string]any)
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		if _, declared := props[k]; (k == "jsonrpc" || k == "id") && !declared {
			continue
		}
		out[k] = v
	}
	return out
}

// allowsInputRequired reports whether the revision's <result>Response
// definition lets the result be an InputRequiredResult.
func (r *revision) allowsInputRequired(result string) bool {
	n, _ := r.defs()[result+"Response"].(map[string]any)
	props, _ := n["properties"].(map[string]any)
	res, _ := props["result"].(map[string]any)
	branches, _ := res["anyOf"].([]any)
	for _, b := range branches {
		if bm, ok := b.(map[string]any); ok && bm["$ref"] == r.defLoc("InputRequiredResult") {
			return true
		}
	}
	return false
}
