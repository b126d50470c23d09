package httpconn

import (
	"fmt"
	"mime"
	"net/http"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// mediaType returns a Content-Type's media type, lower-cased, without
// parameters; "" when there is none or it cannot be read.
func mediaType(ct string) string {
	switch ct {
	case "":
		return ""
	case typeJSON, typeStream:
		return ct
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return ""
	}
	return strings.ToLower(mt)
}

// describe says what an HTTP response was, for messages: its status, its
// content type, where a redirect points, the challenge of a 401, and its
// body, clipped: a
// JSON-RPC error by its code and message, anything else as an excerpt
// with its white space collapsed.
func describe(resp *http.Response, body []byte) string {
	var b strings.Builder
	b.WriteString(resp.Status)
	if resp.Status == "" {
		fmt.Fprintf(&b, "%d", resp.StatusCode)
	}
	if loc := resp.Header.Get("Location"); loc != "" && resp.StatusCode/100 == 3 {
		b.WriteString(" to " + clipQuote(loc))
	}
	if ch := resp.Header.Get("WWW-Authenticate"); ch != "" && resp.StatusCode == http.StatusUnauthorized {
		b.WriteString(" (WWW-Authenticate: " + clipQuote(ch) + ")")
	}
	ct := resp.Header.Get("Content-Type")
	switch {
	case len(strings.TrimSpace(string(body))) == 0:
		b.WriteString(" with no body")
		return b.String()
	case ct == "":
		b.WriteString(", no Content-Type")
	default:
		b.WriteString(", " + clipString(ct))
	}
	if e := rpcError(body); e != nil {
		fmt.Fprintf(&b, ": JSON-RPC error %d: %s", e.Code, clipQuote(e.Message))
		return b.String()
	}
	b.WriteString(": " + clipQuote(strings.Join(strings.Fields(string(body)), " ")))
	return b.String()
}

// rpcError returns the error of a body that is a JSON-RPC error response
// with any id, null or none (which MCP does not allow, but servers send
// for errors of no request), nil otherwise.
func rpcError(body []byte) *jsonrpc.Error {
	var m struct {
		JSONRPC string         `json:"jsonrpc"`
		Error   *jsonrpc.Error `json:"error"`
	}
	if json.Unmarshal(body, &m) != nil || m.JSONRPC != "2.0" || m.Error == nil {
		return nil
	}
	return m.Error
}

// statusError is the error server/discover is answered with when the
// server refused it at the HTTP level: the server's own JSON-RPC error
// when the body holds one without the request's id, else one made of the
// status (400: -32600, 404 and 405: -32601, others -32603), with the
// status in its message and data.
func statusError(resp *http.Response, body []byte) *jsonrpc.Error {
	if e := rpcError(body); e != nil {
		return &jsonrpc.Error{Code: e.Code, Message: "HTTP " + resp.Status + ": " + e.Message, Data: e.Data}
	}
	code := jsonrpc.CodeInternalError
	switch resp.StatusCode {
	case http.StatusBadRequest:
		code = jsonrpc.CodeInvalidRequest
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		code = jsonrpc.CodeMethodNotFound
	}
	return jsonrpc.NewError(code, "HTTP %s", describe(resp, body)).WithData(map[string]int{"httpStatus": resp.StatusCode})
}

// clipString quotes server text in messages (clip.String).
func clipString(s string) string { return clip.String(s) }

// clipQuote quotes server text in messages (clip.Quote).
func clipQuote(s string) string { return clip.Quote(s) }
