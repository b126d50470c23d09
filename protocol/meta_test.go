package protocol

import (
	"testing"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func TestRequestMetaDecode(t *testing.T) {
	in := `{
		"io.modelcontextprotocol/protocolVersion": "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": {},
		"io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
		"io.modelcontextprotocol/logLevel": "warning",
		"progressToken": 9007199254740993,
		"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
		"com.example/flag": true
	}`
	var m RequestMeta
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	want := RequestMeta{
		ProtocolVersion:    "2026-07-28",
		ClientCapabilities: &ClientCapabilities{},
		ClientInfo:         &Implementation{Name: "c", Version: "1"},
		LogLevel:           LevelWarning,
		ProgressToken:      mustID(t, "9007199254740993"),
		Other: Meta{
			"traceparent":      json.RawMessage(`"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"`),
			"com.example/flag": json.RawMessage(`true`),
		},
	}
	if diff := cmp.Diff(want, m, cmp.Comparer(func(a, b jsonrpc.ID) bool { return a.Raw() == b.Raw() })); diff != "" {
		t.Errorf("decoded meta differs (-want +got):\n%s", diff)
	}
	roundTrip(t, []byte(in), new(RequestMeta))
}

func TestRequestMetaEncode(t *testing.T) {
	m := RequestMeta{
		ProtocolVersion:    Version,
		ClientCapabilities: &ClientCapabilities{Elicitation: &ElicitationCapability{}},
		ProgressToken:      jsonrpc.StringID("p"),
		Other:              Meta{"z.example/b": json.RawMessage(`2`), "a.example/a": nil},
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},` +
		`"progressToken":"p","a.example/a":null,"z.example/b":2}`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	out, err = json.Marshal(RequestMeta{})
	if err != nil || string(out) != "{}" {
		t.Errorf("zero meta encodes as %s (%v), want {}", out, err)
	}
}

func TestMetaErrors(t *testing.T) {
	tests := []struct {
		name    string
		v       any
		in      string
		wantErr string
	}{
		{"fractional progress token", new(RequestMeta), `{"progressToken":1.5}`, `"progressToken" must be a string or an integer`},
		{"null progress token", new(RequestMeta), `{"progressToken":null}`, `"progressToken" must be a string or an integer`},
		{"version not a string", new(RequestMeta), `{"io.modelcontextprotocol/protocolVersion":20260728}`, "protocolVersion"},
		{"capabilities not an object", new(RequestMeta), `{"io.modelcontextprotocol/clientCapabilities":[]}`, "clientCapabilities"},
		{"server info not an object", new(ResultMeta), `{"io.modelcontextprotocol/serverInfo":"s"}`, "serverInfo"},
		{"subscription id boolean", new(NotificationMeta), `{"io.modelcontextprotocol/subscriptionId":true}`, "subscriptionId"},
		{"meta not an object", new(SubscriptionsListenResultMeta), `[1]`, "cannot unmarshal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { decodeFails(t, tt.in, tt.v, tt.wantErr) })
	}
}

// TestMetaOtherMustNotRepeatAField shows that a reserved key cannot be
// sent twice, once from its field and once from Other.
func TestMetaOtherMustNotRepeatAField(t *testing.T) {
	tests := []struct {
		name string
		v    any
	}{
		{"request", RequestMeta{Other: Meta{MetaProgressToken: json.RawMessage(`1`)}}},
		{"result", ResultMeta{Other: Meta{MetaServerInfo: json.RawMessage(`{}`)}}},
		{"notification", NotificationMeta{Other: Meta{MetaSubscriptionID: json.RawMessage(`1`)}}},
		{"listen result", SubscriptionsListenResultMeta{Other: Meta{MetaServerInfo: json.RawMessage(`{}`)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { encodeCase(t, tt.v, "", "has its own field") })
	}
}

func TestResultAndNotificationMeta(t *testing.T) {
	tests := []struct {
		name string
		v    any
		in   string
	}{
		{"result meta", new(ResultMeta), `{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"},"x.example/y":[1]}`},
		{"empty result meta", new(ResultMeta), `{}`},
		{"notification meta int id", new(NotificationMeta), `{"io.modelcontextprotocol/subscriptionId":7}`},
		{"listen result meta", new(SubscriptionsListenResultMeta), `{"io.modelcontextprotocol/subscriptionId":"l","io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { roundTrip(t, []byte(tt.in), tt.v) })
	}
}

// mustID parses a JSON-RPC id token.
func mustID(t *testing.T, tok string) jsonrpc.ID {
	t.Helper()
	var id jsonrpc.ID
	if err := json.Unmarshal([]byte(tok), &id); err != nil {
		t.Fatal(err)
	}
	return id
}
