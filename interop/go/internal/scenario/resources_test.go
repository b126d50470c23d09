package scenario

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestContentsOf(t *testing.T) {
	type entry struct {
		URI      string `json:"uri"`
		MimeType string `json:"mimeType,omitempty"`
		Text     string `json:"text,omitempty"`
		Blob     []byte `json:"blob,omitempty"`
	}
	got, err := ContentsOf([]entry{
		{URI: "test://t", MimeType: "text/plain", Text: "hi"},
		{URI: "test://b", MimeType: "image/png", Blob: []byte{0x89, 'P'}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d entries, want 2", len(got))
	}
	if got[0].URI != "test://t" || got[0].MimeType != "text/plain" || got[0].Text == nil || *got[0].Text != "hi" || got[0].Blob != nil {
		t.Errorf("text entry %+v", got[0])
	}
	// A []byte blob is encoded as the wire's base64.
	if got[1].Text != nil || got[1].Blob == nil || *got[1].Blob != "iVA=" {
		t.Errorf("blob entry %+v", got[1])
	}
	if none, err := ContentsOf([]entry(nil)); err != nil || none == nil || len(none) != 0 {
		t.Errorf("no contents: %v, %v; want an empty, non-nil slice", none, err)
	}
}

func TestMessagesOf(t *testing.T) {
	msgs := []map[string]any{
		{"role": "user", "content": map[string]any{"type": "text", "text": "hello"}},
		{"role": "assistant", "content": map[string]any{"type": "image", "data": "AA==", "mimeType": "image/png"}},
	}
	got, err := MessagesOf(msgs)
	if err != nil {
		t.Fatal(err)
	}
	want := []Message{{Role: "user", Type: "text", Text: "hello"}, {Role: "assistant", Type: "image"}}
	if !slices.EqualFunc(got, want, func(a, b Message) bool { return a.Role == b.Role && a.Type == b.Type && a.Text == b.Text }) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if got := messagesProblem(got); got != "" {
		t.Errorf("messagesProblem: %s", got)
	}
	if got := messagesProblem(nil); got != "no messages" {
		t.Errorf("messagesProblem(nil) = %q", got)
	}
	if got := messagesProblem([]Message{{Role: "system", Type: "text"}}); got == "" {
		t.Error("messagesProblem accepts role system")
	}
}

func TestItemsOf(t *testing.T) {
	type prompt struct {
		Name      string `json:"name"`
		Arguments []struct {
			Name     string `json:"name"`
			Required bool   `json:"required"`
		} `json:"arguments"`
	}
	var p prompt
	if err := json.Unmarshal([]byte(`{"name":"p","arguments":[{"name":"arg1","required":true},{"name":"arg2"}]}`), &p); err != nil {
		t.Fatal(err)
	}
	items, err := ItemsOf([]prompt{p}, func(p prompt) string { return p.Name })
	if err != nil || len(items) != 1 || items[0].Key != "p" {
		t.Fatalf("items %+v, error %v", items, err)
	}
	args, err := promptArguments(items[0].Raw)
	if err != nil {
		t.Fatal(err)
	}
	if !args["arg1"] || args["arg2"] || len(args) != 2 {
		t.Errorf("arguments %v, want arg1 required and arg2 not", args)
	}
}

func TestUpdateRoutes(t *testing.T) {
	var r UpdateRoutes
	r.Deliver("test://nobody") // no callback yet: dropped
	n := 0
	r.Set("test://w", func() { n++ })
	r.Deliver("test://w")
	r.Deliver("test://other")
	r.Deliver("test://w")
	if n != 2 {
		t.Errorf("%d deliveries, want 2", n)
	}
}

func TestCapabilitiesOf(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  []string // capability names; nil for none seen
	}{
		{"initialize", []string{
			`> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
			`< {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{"subscribe":true}}}}`,
		}, []string{"resources", "tools"}},
		{"discover after a failed one", []string{
			`> {"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`,
			`< {"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}}`,
			`> {"jsonrpc":"2.0","id":2,"method":"server/discover","params":{}}`,
			`< {"jsonrpc":"2.0","id":2,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"prompts":{}}}}`,
		}, []string{"prompts"}},
		{"another method's result", []string{
			`> {"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`,
			`< {"jsonrpc":"2.0","id":1,"result":{"capabilities":{"tools":{}}}}`,
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			caps := capabilitiesOf(transcript(tt.lines...))
			var got []string
			for k := range caps {
				got = append(got, k)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("capabilities %v, want %v", got, tt.want)
			}
		})
	}
	if !capabilityFlag(json.RawMessage(`{"subscribe":true}`), "subscribe") || capabilityFlag(json.RawMessage(`{"subscribe":"yes"}`), "subscribe") || capabilityFlag(nil, "subscribe") {
		t.Error("capabilityFlag takes only a true boolean")
	}
}

func TestListenLookups(t *testing.T) {
	ack := json.RawMessage(`{"notifications":{"resourceSubscriptions":["test://watched-resource"]},"_meta":{"io.modelcontextprotocol/subscriptionId":"listen:0"}}`)
	if !namesWatched(ack) {
		t.Error("namesWatched misses the watched resource")
	}
	if namesWatched(json.RawMessage(`{"notifications":{"toolsListChanged":true}}`)) {
		t.Error("namesWatched matches a filter without resources")
	}
	if got := subscriptionID(ack); got != `"listen:0"` {
		t.Errorf("subscriptionID = %s", got)
	}
	if got := subscriptionID(json.RawMessage(`{"_meta":{"io.modelcontextprotocol/subscriptionId": 40}}`)); got != "40" {
		t.Errorf("numeric subscriptionID = %s", got)
	}
	if got := paramString(json.RawMessage(`{"uri":"test://x","n":1}`), "uri"); got != "test://x" {
		t.Errorf("paramString = %q", got)
	}
	if notFoundCode(false) != -32002 || notFoundCode(true) != -32602 {
		t.Error("notFoundCode: want -32002 legacy, -32602 modern")
	}
}
