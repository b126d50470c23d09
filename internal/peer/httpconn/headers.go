package httpconn

import (
	"net/http"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/feature"
	"github.com/mcpwire/mcpwire/internal/header"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// Header names this package writes or reads.
const (
	hdrSessionID       = "Mcp-Session-Id"
	hdrProtocolVersion = "MCP-Protocol-Version"
	hdrMethod          = "Mcp-Method"
	hdrName            = "Mcp-Name"
	hdrParamPrefix     = "Mcp-Param-"
	hdrLastEventID     = "Last-Event-ID"
)

// The canonical forms of header names, the keys of an http.Header.
var (
	keyProtocolVersion = http.CanonicalHeaderKey(hdrProtocolVersion)
	keyMethod          = http.CanonicalHeaderKey(hdrMethod)
	keyName            = http.CanonicalHeaderKey(hdrName)
)

// Media types.
const (
	typeJSON   = "application/json"
	typeStream = "text/event-stream"
	acceptPOST = typeJSON + ", " + typeStream
)

// outgoing is one message to POST: its body and the headers it goes with.
type outgoing struct {
	method string // "" for a response
	body   []byte
	modern bool // params._meta names the protocol version (2026-07-28)
	header http.Header
}

// prepare builds the headers of a message with method and params. A
// modern message (params._meta holds the protocol version) gets the
// headers the 2026-07-28 transport wants mirrored from its body:
// MCP-Protocol-Version from _meta, Mcp-Method, Mcp-Name for tools/call,
// prompts/get (name) and resources/read (uri), and one Mcp-Param-{Name}
// per x-mcp-header annotated argument present in a tools/call. A legacy
// message gets the session's Mcp-Session-Id and, from 2025-06-18 on, the
// negotiated MCP-Protocol-Version.
func (c *Conn) prepare(method string, params json.RawMessage, body []byte) outgoing {
	out := outgoing{method: method, body: body, header: c.baseHeader()}
	h := out.header
	h["Content-Type"] = valueJSON
	h["Accept"] = valueAccept
	var buf [8]jsonx.Member
	p, _ := jsonx.ParseObjectInto(params, buf[:0])
	var metaBuf [4]jsonx.Member
	meta, _ := jsonx.ParseObjectInto(p.Get("_meta"), metaBuf[:0])
	if v, ok := jsonBytes(meta.Get(protocol.MetaProtocolVersion)); ok {
		out.modern = true
		h[keyProtocolVersion] = oneValue(v)
		h[keyMethod] = oneValue(method)
		c.nameHeaders(h, method, p)
		return out
	}
	c.sessionHeaders(h)
	return out
}

// The values of the headers every POST carries, shared: a one-element
// slice at full capacity, which an append to the header copies.
var (
	valueJSON   = []string{typeJSON}
	valueAccept = []string{acceptPOST}
)

// commonValues are shared values of MCP-Protocol-Version and Mcp-Method,
// made once.
var commonValues = func() map[string][]string {
	m := map[string][]string{}
	for _, r := range protocol.Revisions() {
		m[r.String()] = []string{r.String()}
	}
	for _, v := range []string{
		protocol.MethodCallTool, protocol.MethodListTools, protocol.MethodReadResource,
		protocol.MethodListResources, protocol.MethodListResourceTemplates, protocol.MethodGetPrompt,
		protocol.MethodListPrompts, protocol.MethodComplete, protocol.MethodDiscover,
		protocol.MethodSubscriptionsListen, protocol.MethodPing,
	} {
		m[v] = []string{v}
	}
	return m
}()

// oneValue returns a header value of v alone, shared when it is a common
// one.
func oneValue[S string | []byte](v S) []string {
	if vs, ok := commonValues[string(v)]; ok {
		return vs
	}
	return []string{string(v)}
}

// baseHeader returns a copy of Options.Header.
func (c *Conn) baseHeader() http.Header {
	h := make(http.Header, len(c.opts.Header)+6)
	for k, vs := range c.opts.Header {
		h[k] = append([]string(nil), vs...)
	}
	return h
}

// sessionHeaders adds the legacy session's headers.
func (c *Conn) sessionHeaders(h http.Header) {
	c.mu.Lock()
	sid, v := c.sessionID, c.version
	c.mu.Unlock()
	if sid != "" {
		h.Set(hdrSessionID, sid)
	}
	if feature.VersionHeader(protocol.ParseRevision(v)) {
		h.Set(hdrProtocolVersion, v)
	}
}

// nameHeaders adds Mcp-Name, and a tools/call's Mcp-Param-* headers.
func (c *Conn) nameHeaders(h http.Header, method string, p jsonx.Object) {
	var key string
	switch method {
	case protocol.MethodCallTool, protocol.MethodGetPrompt:
		key = "name"
	case protocol.MethodReadResource:
		key = "uri"
	case protocol.MethodGetTask, protocol.MethodUpdateTask, protocol.MethodCancelTask:
		key = "taskId"
	default:
		if key = c.opts.Named[method]; key == "" {
			return
		}
	}
	name, ok := jsonString(p.Get(key))
	if !ok {
		return
	}
	h[keyName] = []string{header.EncodeValue(name)}
	if method != protocol.MethodCallTool {
		return
	}
	c.mu.Lock()
	anns := c.annotations[name]
	c.mu.Unlock()
	args := p.Get("arguments")
	for _, a := range anns {
		if v, ok := paramValue(jsonx.At(args, a.Path)); ok {
			h[hdrParamPrefix+a.Header] = []string{v} // the name as the schema spells it
		}
	}
}

// paramValue is the Mcp-Param header value of an argument: a string
// encoded (base64 sentinel when it is not plain ASCII), an integer in
// decimal, a boolean as true or false. An absent or null argument, an
// object or an array has none; another number is sent as written.
func paramValue(raw json.RawMessage) (string, bool) {
	switch jsonx.FirstByte(raw) {
	case '"':
		s, ok := jsonString(raw)
		return header.EncodeValue(s), ok
	case 't', 'f':
		b, err := header.ParseBool(string(raw))
		return header.EncodeBool(b), err == nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if n, err := header.ParseInteger(string(raw)); err == nil {
			s, err := header.EncodeInteger(n)
			return s, err == nil
		}
		return header.EncodeValue(string(raw)), true
	}
	return "", false
}

// jsonString decodes a JSON string; ok is false for anything else.
func jsonString(raw json.RawMessage) (string, bool) {
	b, ok := jsonBytes(raw)
	return string(b), ok
}

// jsonBytes is jsonString without a copy when the string holds no escape
// (see jsonx.StringValue).
func jsonBytes(raw json.RawMessage) ([]byte, bool) { return jsonx.StringValue(raw) }

// learn records the x-mcp-header annotations of the tools a tools/list
// result lists, for the Mcp-Param headers of their calls. A tool whose
// annotations are invalid gets none and is recorded as invalid: the spec
// has HTTP clients exclude it (Options.ExcludeInvalidTools), and a
// reviewer refuses it instead (its calls go without them).
func (c *Conn) learn(result json.RawMessage) {
	var page struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if json.Unmarshal(result, &page) != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range page.Tools {
		// Sensitive names are a server's SHOULD NOT, not a reason to
		// drop a tool: the server expects their headers all the same.
		anns, err := header.Annotations(t.InputSchema, header.WithSensitiveNames(nil))
		if err != nil {
			anns = nil
			c.invalid[t.Name] = err
		} else {
			delete(c.invalid, t.Name)
		}
		if len(anns) == 0 {
			delete(c.annotations, t.Name)
			continue
		}
		c.annotations[t.Name] = anns
	}
}

// excluded returns the tool the tools/call request m calls and why it
// must not be sent, when Options.ExcludeInvalidTools excludes that tool;
// why is nil otherwise.
func (c *Conn) excluded(m *jsonrpc.Request) (name string, why error) {
	if !c.opts.ExcludeInvalidTools || m.Method != protocol.MethodCallTool {
		return "", nil
	}
	var buf [8]jsonx.Member
	p, _ := jsonx.ParseObjectInto(m.Params, buf[:0])
	b, ok := jsonBytes(p.Get("name"))
	if !ok {
		return "", nil
	}
	c.mu.Lock()
	why = c.invalid[string(b)]
	c.mu.Unlock()
	if why == nil {
		return "", nil
	}
	return string(b), why
}
