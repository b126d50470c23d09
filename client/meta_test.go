package client_test

import (
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/protocol"
)

// WithMeta's members travel in the request's _meta, and a 2026-07-28
// member given there replaces the client's own.
func TestWithMeta(t *testing.T) {
	c, f := serveFake(t, protocol.Modern, map[string]string{
		protocol.MethodListTools: `{"resultType":"complete","tools":[{"name":"echo","inputSchema":{"type":"object"}}]}`,
		protocol.MethodCallTool:  `{"resultType":"complete","content":[{"type":"text","text":"ok"}]}`,
	}, nil)
	caps := json.RawMessage(`{"sampling":{}}`)
	ctx := client.WithMeta(bounded(t), protocol.Meta{protocol.MetaClientCapabilities: caps, "example.com/trace": json.RawMessage(`"t-1"`)})
	if _, err := c.CallTool(ctx, "echo", nil); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	req := f.sent[len(f.sent)-1]
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(req.Params, &p); err != nil {
		t.Fatal(err)
	}
	if got := string(p.Meta[protocol.MetaClientCapabilities]); got != string(caps) {
		t.Errorf("clientCapabilities %s, want the given %s", got, caps)
	}
	if got := string(p.Meta["example.com/trace"]); got != `"t-1"` {
		t.Errorf("the given member is %s", got)
	}
	if !strings.Contains(string(p.Meta[protocol.MetaClientInfo]), "mcpwire") {
		t.Errorf("the client's own members are gone: %s", req.Params)
	}
}
