package mcphttp

import (
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/header"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
)

var fuzzAnnotations = []header.Annotation{
	{Header: "Region", Path: []string{"region"}, Type: "string"},
	{Header: "Count", Path: []string{"count"}, Type: "integer"},
	{Header: "Zone", Path: []string{"loc", "zone"}, Type: "string"},
}

// fuzzRouted reads a tools/call of a tool with fuzzAnnotations as the
// server's routing would (mcp.Routed).
func fuzzRouted(req *jsonrpc.Request) *mcp.Routed {
	rt := &mcp.Routed{Method: req.Method, Params: req.Params, Named: "name", Era: protocol.Legacy}
	p, _ := jsonx.ParseObject(req.Params)
	if meta := p.Get("_meta"); meta != nil {
		m, _ := jsonx.ParseObject(meta)
		if rt.Version = m.Get(protocol.MetaProtocolVersion); rt.Version != nil {
			rt.Era = protocol.Modern
		}
	}
	rt.Name, rt.Arguments = p.Get("name"), p.Get("arguments")
	if _, ok := jsonString(rt.Name); ok {
		rt.Headers = fuzzAnnotations
	}
	return rt
}

// The parity check never panics, whatever the headers and the body; a
// header built with header.EncodeValue from the argument always passes.
func FuzzCheckParity(f *testing.F) {
	f.Add(`{"name":"t","arguments":{"region":"eu","count":42,"loc":{"zone":"a"}},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`,
		"Mcp-Name: t\nMcp-Param-Region: eu\nmcp-param-count: 42.0\nMcp-Param-Zone: =?base64?YQ==?=", "eu")
	f.Add(`{"name":"t","arguments":{"region":null,"count":1e400}}`, "Mcp-Param-Count: 1e400\nMcp-Param-Count: 2", " x ")
	f.Add(`{"name":"t","arguments":[1]}`, "Mcp-Param-Region: =?base64?!?=", "=?base64?literal?=")
	f.Fuzz(func(t *testing.T, params, headers, region string) {
		m, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + params + `}`))
		if err == nil {
			if req, ok := m.(*jsonrpc.Request); ok {
				checkParity(parseHeaders(headers), fuzzRouted(req), true)
			}
		}
		if !utf8.ValidString(region) {
			return
		}
		args := `{"region":` + string(quoteJSON(region)) + `}`
		got := map[string][]string{"region": {header.EncodeValue(region)}}
		if e := checkParams(got, fuzzAnnotations[:1], []byte(args)); e != nil {
			t.Errorf("region %q encoded as %q: %s", region, got["region"][0], e.message())
		}
	})
}

// parseHeaders reads "Name: value" lines.
func parseHeaders(s string) http.Header {
	hd := http.Header{}
	for line := range strings.Lines(s) {
		k, v, ok := strings.Cut(strings.TrimRight(line, "\r\n"), ":")
		if ok {
			hd[http.CanonicalHeaderKey(strings.TrimSpace(k))] = append(hd[http.CanonicalHeaderKey(strings.TrimSpace(k))], strings.TrimSpace(v))
		}
	}
	return hd
}

// Direct rows of the parity check for what HTTP cannot carry in a test.
func TestCompareValue(t *testing.T) {
	for _, c := range []struct{ h, body, want string }{
		{"42", "42", ""},
		{"42.0", "42", ""},
		{"4.2e1", "42.0", ""},
		{"42", "42.5", catMismatch},
		{"9007199254740993", "9007199254740993", catMalformed},
		{"true", "true", ""},
		{"true", "false", catMismatch},
		{"=?base64?dHJ1ZQ==?=", "true", ""},
		{"x", `{"a":1}`, catMismatch},
		{"a\x01", `"a\u0001"`, catMalformed},
		{"=?base64?YQEB?=", `"a\u0001\u0001"`, ""},
	} {
		if got := compareValue(c.h, []byte(c.body)); got != c.want {
			t.Errorf("compareValue(%q, %s) = %q, want %q", c.h, c.body, got, c.want)
		}
	}
}

// quoteJSON is s as a JSON string.
func quoteJSON(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
