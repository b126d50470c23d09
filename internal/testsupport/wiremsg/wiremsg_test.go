package wiremsg_test

import (
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/testsupport/wiremsg"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// params stands for any request or notification params.
type params struct {
	Name string `json:"name,omitempty"`
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name    string
		v       any
		in      string
		wantErr string
	}{
		{"other method", wiremsg.NewRequest[params]("tools/list"), `{"jsonrpc":"2.0","id":1,"method":"prompts/list","params":{}}`,
			`method is "prompts/list", want "tools/list"`},
		{"no jsonrpc", wiremsg.NewRequest[params]("server/discover"), `{"id":1,"method":"server/discover","params":{}}`,
			`jsonrpc is "", want "2.0"`},
		{"jsonrpc 1.0", new(wiremsg.Request[params]), `{"jsonrpc":"1.0","id":1,"method":"server/discover","params":{}}`,
			`jsonrpc is "1.0"`},
		{"no id", new(wiremsg.Request[params]), `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"t"}}`,
			"tools/call request has no id"},
		{"null id", new(wiremsg.Request[params]), `{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"t"}}`,
			"id must be a string or an integer"},
		{"notification of another method", wiremsg.NewNotification[params]("notifications/cancelled"), `{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`,
			`method is "notifications/progress", want "notifications/cancelled"`},
		{"result without id", new(wiremsg.Result[params]), `{"jsonrpc":"2.0","result":{}}`,
			"result response has no id"},
		{"error response jsonrpc", new(wiremsg.Error), `{"jsonrpc":"2","error":{"code":-32603,"message":"m"}}`,
			`jsonrpc is "2"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := json.Unmarshal([]byte(tt.in), tt.v)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestEncode(t *testing.T) {
	tests := []struct {
		name    string
		v       any
		want    string
		wantErr string
	}{
		{"request", wiremsg.Request[params]{ID: jsonrpc.Int64ID(3), Method: "tools/call", Params: params{Name: "t"}},
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t"}}`, ""},
		{"request without id", wiremsg.Request[params]{Method: "server/discover"}, "", "server/discover request has no id"},
		{"result", wiremsg.Result[params]{ID: jsonrpc.StringID("a"), Result: params{Name: "r"}},
			`{"jsonrpc":"2.0","id":"a","result":{"name":"r"}}`, ""},
		{"result without id", wiremsg.Result[params]{}, "", "result response has no id"},
		{"error without id", wiremsg.Error{Error: jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "Parse error"}},
			`{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}`, ""},
		{"error with id and data", wiremsg.Error{ID: jsonrpc.Int64ID(1), Error: jsonrpc.Error{Code: -32022, Message: "m", Data: json.RawMessage(`{"requested":"x","supported":[]}`)}},
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"m","data":{"requested":"x","supported":[]}}}`, ""},
		{"notification without params", wiremsg.Notification[*params]{Method: "notifications/tools/list_changed"},
			`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, ""},
		{"notification with params", wiremsg.Notification[*params]{Method: "notifications/prompts/list_changed", Params: &params{}},
			`{"jsonrpc":"2.0","method":"notifications/prompts/list_changed","params":{}}`, ""},
		{"notification with struct params", wiremsg.Notification[params]{Method: "notifications/cancelled"},
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := json.Marshal(tt.v)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || string(out) != tt.want {
				t.Errorf("got  %s (%v)\nwant %s", out, err, tt.want)
			}
		})
	}
}

// TestRequestIDKeptAsSent shows that ids beyond float64 precision and
// string ids go back byte for byte.
func TestRequestIDKeptAsSent(t *testing.T) {
	for _, id := range []string{`9007199254740993`, `"x\u0041"`, `-1`} {
		in := `{"jsonrpc":"2.0","id":` + id + `,"method":"server/discover","params":{}}`
		r := wiremsg.NewRequest[params]("server/discover")
		if err := json.Unmarshal([]byte(in), r); err != nil {
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
