package mcphttp_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/tool"
)

// routeTool has arguments mirrored into headers.
func routeTool() tool.Tool {
	return tool.Tool{Name: "route", Description: "route", Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
		return tool.TextResult("routed"), nil
	}, InputSchema: json.RawMessage(`{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"count":{"type":"integer","x-mcp-header":"Count"},
		"dry":{"type":"boolean","x-mcp-header":"Dry-Run"},
		"loc":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}}}}`)}
}

// Header parity: each row changes the headers or arguments of a valid
// tools/call; the rows that break parity get 400 with -32020 naming the
// header, and the log names the header, never the value.
func TestHeaderParity(t *testing.T) {
	f := start(t, newServer(t, routeTool()), nil)
	type mod func(hd http.Header, args map[string]any)
	set := func(k, v string) mod { return func(hd http.Header, _ map[string]any) { hd.Set(k, v) } }
	add := func(k, v string) mod { return func(hd http.Header, _ map[string]any) { hd.Add(k, v) } }
	del := func(k string) mod { return func(hd http.Header, _ map[string]any) { hd.Del(k) } }
	arg := func(k string, v any) mod { return func(_ http.Header, a map[string]any) { a[k] = v } }
	rows := []struct {
		name   string
		mods   []mod
		header string // named in the error; "" for success
	}{
		{"all equal", nil, ""},
		{"header names in any case", []mod{del("Mcp-Param-Region"), func(hd http.Header, _ map[string]any) { hd["mcp-param-REGION"] = []string{"eu-west-secret"} }}, ""},
		{"integer compared numerically", []mod{set("Mcp-Param-Count", "42.0")}, ""},
		{"base64 value", []mod{arg("region", "Hello, 世界"), set("Mcp-Param-Region", "=?base64?SGVsbG8sIOS4lueVjA==?=")}, ""},
		{"base64 name", []mod{set("Mcp-Name", "=?base64?cm91dGU=?=")}, ""},
		{"null argument, no header", []mod{arg("region", nil), del("Mcp-Param-Region")}, ""},
		{"absent argument, no header", []mod{func(hd http.Header, a map[string]any) { delete(a, "loc"); hd.Del("Mcp-Param-Zone") }}, ""},
		{"unknown Mcp-Param forwarded", []mod{set("Mcp-Param-Other", "x")}, ""},
		{"missing protocol version", []mod{del("MCP-Protocol-Version")}, "MCP-Protocol-Version"},
		{"protocol version mismatch", []mod{set("MCP-Protocol-Version", "2025-11-25")}, "MCP-Protocol-Version"},
		{"missing method", []mod{del("Mcp-Method")}, "Mcp-Method"},
		{"method mismatch", []mod{set("Mcp-Method", "tools/list")}, "Mcp-Method"},
		{"method duplicated", []mod{add("Mcp-Method", "tools/call")}, "Mcp-Method"},
		{"missing name", []mod{del("Mcp-Name")}, "Mcp-Name"},
		{"name mismatch", []mod{set("Mcp-Name", "other")}, "Mcp-Name"},
		{"name malformed base64", []mod{set("Mcp-Name", "=?base64?!!!?=")}, "Mcp-Name"},
		{"param missing", []mod{del("Mcp-Param-Region")}, "Mcp-Param-Region"},
		{"param mismatch", []mod{set("Mcp-Param-Region", "us-east")}, "Mcp-Param-Region"},
		{"param duplicated", []mod{add("Mcp-Param-Region", "eu-west-secret")}, "Mcp-Param-Region"},
		{"param without argument", []mod{arg("region", nil)}, "Mcp-Param-Region"},
		{"integer mismatch", []mod{set("Mcp-Param-Count", "43")}, "Mcp-Param-Count"},
		{"integer malformed", []mod{set("Mcp-Param-Count", "forty-two")}, "Mcp-Param-Count"},
		{"boolean mismatch", []mod{set("Mcp-Param-Dry-Run", "false")}, "Mcp-Param-Dry-Run"},
		{"boolean malformed", []mod{set("Mcp-Param-Dry-Run", "yes")}, "Mcp-Param-Dry-Run"},
		{"nested param mismatch", []mod{set("Mcp-Param-Zone", "b")}, "Mcp-Param-Zone"},
		{"nested param missing", []mod{del("Mcp-Param-Zone")}, "Mcp-Param-Zone"},
		{"control character", []mod{arg("region", "a\tb"), set("Mcp-Param-Region", "=?base64?YQli?=")}, ""},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			hd := modernHeaders("tools/call", "route")
			hd.Set("Mcp-Param-Region", "eu-west-secret")
			hd.Set("Mcp-Param-Count", "42")
			hd.Set("Mcp-Param-Dry-Run", "true")
			hd.Set("Mcp-Param-Zone", "a")
			args := map[string]any{"region": "eu-west-secret", "count": 42, "dry": true, "loc": map[string]any{"zone": "a"}}
			for _, m := range row.mods {
				m(hd, args)
			}
			r := f.postRead(hd, modernBody(1, "tools/call", map[string]any{"name": "route", "arguments": args}, nil))
			if row.header == "" {
				// A null argument passes the headers and fails the schema.
				if r.status != 200 || r.errorCode() != 0 || !strings.Contains(r.body, "routed") && row.name != "null argument, no header" {
					t.Errorf("%d %s", r.status, r.body)
				}
				return
			}
			if r.status != 400 || r.errorCode() != -32020 || !strings.Contains(r.errorMessage(), row.header+" header") {
				t.Errorf("%d %s", r.status, r.body)
			}
			if r.msg["id"] != float64(1) {
				t.Errorf("id: %s", r.body)
			}
		})
	}
	logs := f.log.String()
	if !strings.Contains(logs, "header=Mcp-Param-Region") || !strings.Contains(logs, "category=mismatch") {
		t.Errorf("log: %s", logs)
	}
	for _, v := range []string{"eu-west-secret", "us-east", "forty-two"} {
		if strings.Contains(logs, v) {
			t.Errorf("the log holds the value %q:\n%s", v, logs)
		}
	}
}

// Mcp-Name mirrors params.uri on resources/read and params.name on
// prompts/get; a mismatch is refused before the method runs.
func TestHeaderParityNames(t *testing.T) {
	f := start(t, newServer(t), nil)
	for _, c := range []struct{ method, key, value, header string }{
		{"resources/read", "uri", "file:///a", "file:///b"},
		{"prompts/get", "name", "greet", "other"},
	} {
		hd := modernHeaders(c.method, c.header)
		r := f.postRead(hd, modernBody(1, c.method, map[string]any{c.key: c.value}, nil))
		if r.status != 400 || r.errorCode() != -32020 || !strings.Contains(r.errorMessage(), "Mcp-Name") {
			t.Errorf("%s: %d %s", c.method, r.status, r.body)
		}
	}
	// Without Mcp-Name, the same request is refused as missing it.
	r := f.postRead(modernHeaders("prompts/get", ""), modernBody(1, "prompts/get", map[string]any{"name": "greet"}, nil))
	if r.errorCode() != -32020 || !strings.Contains(r.errorMessage(), "missing") {
		t.Errorf("missing Mcp-Name: %d %s", r.status, r.body)
	}
}
