package mcp

import (
	"strings"
	"testing"
	"unsafe"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

func parse(t *testing.T, raw string) jsonx.Object {
	t.Helper()
	obj, err := jsonx.ParseObject(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

// Params are decoded by exact key, at every depth: a member that matches
// a field only when case is ignored does not fill it.
func TestDecodeMembersExactKey(t *testing.T) {
	var call protocol.CallToolRequestParams
	if err := decodeMembers(parse(t, `{"Name":"evil","name":"good","ARGUMENTS":{"x":1}}`), &call); err != nil {
		t.Fatal(err)
	}
	if call.Name != "good" || call.Arguments != nil {
		t.Errorf("got name %q, arguments %s; want the exact keys only", call.Name, call.Arguments)
	}
	var listen protocol.SubscriptionsListenRequestParams
	if err := decodeMembers(parse(t, `{"notifications":{"ToolsListChanged":true}}`), &listen); err != nil {
		t.Fatal(err)
	}
	if listen.Notifications.ToolsListChanged != nil {
		t.Errorf("a case variant inside a nested object filled the field")
	}
}

// A json.RawMessage member is the bytes of the message, not a copy.
func TestDecodeMembersRawIsNotCopied(t *testing.T) {
	raw := `{"name":"echo","arguments":{"text":"` + strings.Repeat("a", 1<<16) + `"}}`
	obj := parse(t, raw)
	var p protocol.CallToolRequestParams
	if err := decodeMembers(obj, &p); err != nil {
		t.Fatal(err)
	}
	if unsafe.SliceData(p.Arguments) != unsafe.SliceData(obj.Get("arguments")) {
		t.Error("arguments were copied")
	}
}

// A member of the wrong type is -32602 naming it, with its path; _meta is
// skipped (routing reads it), null and absent members leave the zero value.
func TestDecodeMembersErrors(t *testing.T) {
	tests := []struct {
		params, want string
	}{
		{`{"name":5}`, `invalid params: "name" must be a string`},
		{`{"cursor":{}}`, `invalid params: "cursor" must be a string`},
		{`{"notifications":[]}`, `invalid params: "notifications" must be an object`},
		{`{"notifications":{"toolsListChanged":"yes"}}`, `invalid params: "notifications.toolsListChanged" must be a boolean`},
		{`{"notifications":{"resourceSubscriptions":{}}}`, `invalid params: "notifications.resourceSubscriptions" must be an array`},
		{`{"level":1}`, `invalid params: "level" must be a string`},
	}
	for _, tt := range tests {
		var call protocol.CallToolRequestParams
		var list protocol.PaginatedRequestParams
		var listen protocol.SubscriptionsListenRequestParams
		var level protocol.SetLevelRequestParams
		var got *jsonrpc.Error
		for _, dst := range []any{&call, &list, &listen, &level} {
			if err := decodeMembers(parse(t, tt.params), dst); err != nil {
				got = err
			}
		}
		if got == nil || got.Code != jsonrpc.CodeInvalidParams || got.Message != tt.want {
			t.Errorf("%s: got %v, want %q", tt.params, got, tt.want)
		}
	}
	var call protocol.CallToolRequestParams
	if err := decodeMembers(parse(t, `{"name":null,"_meta":[],"arguments":null}`), &call); err != nil || call.Name != "" || call.Arguments != nil {
		t.Errorf("null members and _meta: got %+v, %v", call, err)
	}
}
