//go:build deploy

package deploy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

const (
	modernVersion = "2026-07-28"
	legacyVersion = "2025-11-25"
)

// client speaks MCP over Streamable HTTP to one URL, as a plain HTTP/1.1
// client with keep-alive would.
type client struct {
	url string
	hc  *http.Client
}

func newClient(url string, conns int) *client { return newClientFrom(url, conns, "") }

// newClientFrom is newClient with its connections made from the loopback
// address from (such as 127.0.0.2: every 127/8 address is the machine's),
// so that a test has clients at addresses of their own; "" lets the system
// choose.
func newClientFrom(url string, conns int, from string) *client {
	d := &net.Dialer{Timeout: 10 * time.Second}
	if from != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	tr := &http.Transport{MaxIdleConns: conns, MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns,
		IdleConnTimeout: time.Minute, DisableCompression: true, DialContext: d.DialContext}
	return &client{url: url, hc: &http.Client{Transport: tr}}
}

// message is one JSON-RPC message, decoded loosely.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// answer is what one POST got back.
type answer struct {
	status   int
	upstream string    // the instance nginx chose (X-Mcp-Upstream), "" when direct
	session  string    // Mcp-Session-Id, on a legacy initialize
	messages []message // in order; the response last
}

// response returns the answer's response (the last message with an id and
// no method), or nil.
func (a *answer) response() *message {
	for i := len(a.messages) - 1; i >= 0; i-- {
		if m := a.messages[i]; m.Method == "" && len(m.ID) > 0 {
			return &a.messages[i]
		}
	}
	return nil
}

// modernMeta is the per-request _meta of a 2026-07-28 request.
func modernMeta() map[string]any {
	return map[string]any{
		"io.modelcontextprotocol/protocolVersion":    modernVersion,
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"elicitation": map[string]any{}},
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "deploy-test", "version": "1"},
	}
}

// request builds a request body.
func request(id any, method string, params map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return b
}

// post sends body with the headers a client of version sends for method,
// and reads the whole answer: one JSON object, or an event stream until it
// ends. onMessage, when set, sees each message of a stream as it arrives
// (a legacy client answers the server's requests from there).
func (c *client) post(ctx context.Context, version, session, method, name string, body []byte, onMessage func(message)) (*answer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", version)
	if version == modernVersion && method != "" {
		req.Header.Set("Mcp-Method", method)
		if name != "" {
			req.Header.Set("Mcp-Name", name)
		}
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	a := &answer{status: resp.StatusCode, upstream: resp.Header.Get("X-Mcp-Upstream"), session: resp.Header.Get("Mcp-Session-Id")}
	ct := resp.Header.Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "text/event-stream"):
		err = readEvents(resp.Body, func(m message) {
			a.messages = append(a.messages, m)
			if onMessage != nil {
				onMessage(m)
			}
		})
	case strings.HasPrefix(ct, "application/json"):
		var m message
		if err = json.NewDecoder(io.LimitReader(resp.Body, 16<<20)).Decode(&m); err == nil {
			a.messages = append(a.messages, m)
		}
	default:
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	}
	return a, err
}

// readEvents reads an event stream, handing each data payload on.
func readEvents(r io.Reader, each func(message)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	var data strings.Builder
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data.Len() > 0 {
				var m message
				if err := json.Unmarshal([]byte(data.String()), &m); err != nil {
					return fmt.Errorf("event data is not JSON-RPC: %v", err)
				}
				each(m)
				data.Reset()
			}
		case strings.HasPrefix(line, "data:"):
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	if err := sc.Err(); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// call sends one 2026-07-28 request and returns its answer.
func (c *client) call(ctx context.Context, id any, method, name string, params map[string]any) (*answer, error) {
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = modernMeta()
	return c.post(ctx, modernVersion, "", method, name, request(id, method, params), nil)
}

// result decodes a successful response's result into v.
func (a *answer) result(v any) error {
	r := a.response()
	switch {
	case r == nil:
		return fmt.Errorf("HTTP %d with no response", a.status)
	case r.Error != nil:
		return fmt.Errorf("error %d: %s", r.Error.Code, r.Error.Message)
	}
	return json.Unmarshal(r.Result, v)
}
