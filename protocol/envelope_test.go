package protocol

import (
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

const testMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

func TestEnvelopeDecodeErrors(t *testing.T) {
	tests := []struct {
		name    string
		v       any
		in      string
		wantErr string
	}{
		{"other method", new(ListToolsRequest), `{"jsonrpc":"2.0","id":1,"method":"prompts/list","params":{` + testMeta + `}}`,
			`method is "prompts/list", want "tools/list"`},
		{"no jsonrpc", new(DiscoverRequest), `{"id":1,"method":"server/discover","params":{` + testMeta + `}}`,
			`jsonrpc is "", want "2.0"`},
		{"jsonrpc 1.0", new(DiscoverRequest), `{"jsonrpc":"1.0","id":1,"method":"server/discover","params":{` + testMeta + `}}`,
			`jsonrpc is "1.0"`},
		{"no id", new(CallToolRequest), `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"t",` + testMeta + `}}`,
			"tools/call request has no id"},
		{"null id", new(CallToolRequest), `{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"t",` + testMeta + `}}`,
			"id must be a string or an integer"},
		{"notification of another method", new(CancelledNotification), `{"jsonrpc":"2.0","method":"notifications/progress","params":{"requestId":1}}`,
			`method is "notifications/progress", want "notifications/cancelled"`},
		{"result without id", new(ListToolsResultResponse), `{"jsonrpc":"2.0","result":{"tools":[]}}`,
			"result response has no id"},
		{"error response jsonrpc", new(ErrorResponse), `{"jsonrpc":"2","error":{"code":-32603,"message":"m"}}`,
			`jsonrpc is "2"`},
		{"input request of another method", new(ElicitRequest), `{"method":"roots/list"}`,
			`method is "roots/list", want "elicitation/create"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { decodeFails(t, tt.in, tt.v, tt.wantErr) })
	}
}

func TestEnvelopeEncode(t *testing.T) {
	tests := []struct {
		name    string
		v       any
		want    string
		wantErr string
	}{
		{"request", ListToolsRequest{ID: jsonrpc.Int64ID(3), Params: PaginatedRequestParams{Meta: RequestMeta{ProtocolVersion: Version}}},
			`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, ""},
		{"request without id", DiscoverRequest{}, "", "server/discover request has no id"},
		{"result", ListToolsResultResponse{ID: jsonrpc.StringID("a"), Result: ListToolsResult{Envelope: Envelope{ResultType: ResultTypeComplete}}},
			`{"jsonrpc":"2.0","id":"a","result":{"resultType":"complete","tools":[]}}`, ""},
		{"result without id", CompleteResultResponse{}, "", "result response has no id"},
		{"error without id", ErrorResponse{Error: jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "Parse error"}},
			`{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}`, ""},
		{"error with id and data", ErrorResponse{ID: jsonrpc.Int64ID(1), Error: jsonrpc.Error{Code: -32022, Message: "m", Data: json.RawMessage(`{"requested":"x","supported":[]}`)}},
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"m","data":{"requested":"x","supported":[]}}}`, ""},
		{"list changed without params", ToolListChangedNotification{},
			`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, ""},
		{"list changed on a stream", PromptListChangedNotification{Params: &NotificationParams{Meta: &NotificationMeta{SubscriptionID: jsonrpc.StringID("l")}}},
			`{"jsonrpc":"2.0","method":"notifications/prompts/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"l"}}}`, ""},
		{"cancelled", CancelledNotification{Params: CancelledNotificationParams{RequestID: jsonrpc.Int64ID(4)}},
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}`, ""},
		{"roots input request", ListRootsRequest{}, `{"method":"roots/list"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { encodeCase(t, tt.v, tt.want, tt.wantErr) })
	}
}

// TestRequestIDKeptAsSent shows that ids beyond float64 precision and
// string ids go back byte for byte.
func TestRequestIDKeptAsSent(t *testing.T) {
	for _, id := range []string{`9007199254740993`, `"x\u0041"`, `-1`} {
		in := `{"jsonrpc":"2.0","id":` + id + `,"method":"server/discover","params":{` + testMeta + `}}`
		var r DiscoverRequest
		if err := json.Unmarshal([]byte(in), &r); err != nil {
			t.Fatal(err)
		}
		if r.ID.Raw() != id {
			t.Errorf("id %s decoded as %s", id, r.ID.Raw())
		}
		out, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), `"id":`+id+`,`) {
			t.Errorf("id %s not kept: %s", id, out)
		}
	}
}
