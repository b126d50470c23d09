package mcp

import (
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// TestEncodeInitializeMatchesMarshal holds the hand-written initialize
// result to json.Marshal's bytes, for every capability the server declares
// in every legacy revision, identities with and without the optional
// fields, and strings that take the fallback.
func TestEncodeInitializeMatchesMarshal(t *testing.T) {
	yes, no := true, false
	capsets := []protocol.ServerCapabilities{
		{},
		{Logging: protocol.Object{}},
		{Logging: protocol.Object{}, Tools: &protocol.ToolsCapability{ListChanged: &yes}},
		{Logging: protocol.Object{}, Completions: protocol.Object{}, Prompts: &protocol.PromptsCapability{ListChanged: &yes},
			Resources: &protocol.ResourcesCapability{Subscribe: &yes, ListChanged: &yes}, Tools: &protocol.ToolsCapability{ListChanged: &yes}},
		{Resources: &protocol.ResourcesCapability{ListChanged: &no}, Tools: &protocol.ToolsCapability{}, Prompts: &protocol.PromptsCapability{}},
		{Logging: protocol.Object{"x": json.RawMessage(`1`)}},                                       // fallback
		{Extensions: map[string]protocol.Object{TasksExtension: {}}},                                // fallback
		{Experimental: map[string]protocol.Object{"e": {}}, Completions: protocol.Object{"y": nil}}, // fallback
	}
	infos := []protocol.Implementation{
		{Name: "s", Version: "1"},
		{Name: "server", Title: "The \"Server\"", Version: "1.2.3", Description: "line one\nline\ttwo\r\\", WebsiteURL: "https://example.com/a?b=c"},
		{Name: "a<b", Version: "x&y"},   // fallback
		{Name: "café", Version: "1"},    // fallback
		{Name: "ctl\x01", Version: "1"}, // fallback
		{Name: "i", Version: "1", Icons: []protocol.Icon{{Src: "https://example.com/i.png"}}}, // fallback
	}
	s := NewServer(Implementation{Name: "x", Version: "1"}, nil)
	for _, version := range []string{protocol.Revision20241105.String(), protocol.Revision20250326.String(), protocol.Revision20250618.String(), protocol.Revision20251125.String()} {
		for ci, caps := range append(capsets, s.capabilities(legacyRev(version))) {
			for ii, info := range infos {
				for si, instructions := range []string{"", "Use the tools.\nThen \"stop\".", "<b>"} {
					res := &protocol.InitializeResult{ProtocolVersion: version, Capabilities: caps, ServerInfo: info, Instructions: instructions}
					plain := (ci < 5 || ci == len(capsets)) && ii < 2 && si < 2
					if _, ok := appendInitialize(nil, res); ok != plain {
						t.Errorf("%s caps %d info %d instructions %d: written by hand %v, want %v", version, ci, ii, si, ok, plain)
					}
					want, err := json.Marshal(res)
					if err != nil {
						t.Fatal(err)
					}
					got, err := encodeInitialize(res)
					if err != nil {
						t.Fatal(err)
					}
					if string(got) != string(want) {
						t.Errorf("encodeInitialize:\n got %s\nwant %s", got, want)
					}
				}
			}
		}
	}
}
