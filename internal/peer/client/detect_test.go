package client

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

func TestDetectEra(t *testing.T) {
	refuse := func(code int64, data string) func(*peer, *jsonrpc.Request) {
		return func(p *peer, r *jsonrpc.Request) { p.fail(r.ID, code, data) }
	}
	// versionGate refuses every discover offering another version than
	// want with -32022 listing supported.
	versionGate := func(want, supported string) script {
		return func(p *peer, m jsonrpc.Message) {
			r, ok := m.(*jsonrpc.Request)
			if !ok || r.Method != "server/discover" {
				legacy(nil, nil)(p, m)
				return
			}
			if string(metaOf(t, r)["io.modelcontextprotocol/protocolVersion"]) != `"`+want+`"` {
				p.fail(r.ID, -32022, `{"supported":`+supported+`,"requested":"x"}`)
				return
			}
			p.result(r.ID, discoverResult)
		}
	}
	tests := []struct {
		name     string
		script   script
		opts     Options
		era      protocol.Era
		revision string
		discover Answer
		code     int64  // of DiscoverError
		retried  string // Detection.Retried
		story    string // in Detection.String()
		asked    string // the version initialize asked for, when not the default
	}{
		{name: "modern server", script: modern(nil),
			era: protocol.Modern, revision: "2026-07-28", discover: Answered, story: "server/discover got a result"},
		{name: "legacy answers -32601", script: legacy(refuse(-32601, ""), nil),
			era: protocol.Legacy, revision: "2025-11-25", discover: Refused, code: -32601, story: "error -32601 (no)"},
		{name: "legacy answers -32602", script: legacy(refuse(-32602, ""), nil),
			era: protocol.Legacy, revision: "2025-11-25", discover: Refused, code: -32602},
		{name: "legacy never answers discover", script: legacy(nil, nil),
			era: protocol.Legacy, revision: "2025-11-25", discover: Silent, story: "no answer"},
		{name: "discover answered with something else", script: legacy(func(p *peer, r *jsonrpc.Request) { p.result(r.ID, `{}`) }, nil),
			era: protocol.Legacy, revision: "2025-11-25", discover: Garbled, story: "no supportedVersions"},
		{name: "discover answered with an invalid response", script: legacy(func(p *peer, r *jsonrpc.Request) {
			p.write(`{"jsonrpc":"2.0","id":` + r.ID.Raw() + `,"result":{},"error":{"code":1,"message":"both"}}`)
		}, nil), era: protocol.Legacy, revision: "2025-11-25", discover: Garbled},
		{name: "discover lists only legacy versions", script: legacy(func(p *peer, r *jsonrpc.Request) {
			p.result(r.ID, `{"supportedVersions":["2025-06-18"],"capabilities":{}}`)
		}, nil), era: protocol.Legacy, revision: "2025-11-25", discover: Answered, asked: "2025-06-18"},
		{name: "-32022 offers another modern version", script: versionGate("2026-09-01", `["2025-11-25","2026-09-01"]`),
			era: protocol.Modern, revision: "2026-09-01", discover: Refused, code: -32022, retried: "2026-09-01", story: `retried with "2026-09-01"`},
		{name: "pre-release -32004 offers another modern version", script: func(p *peer, m jsonrpc.Message) {
			r, _ := m.(*jsonrpc.Request)
			if r != nil && r.Method == "server/discover" && strings.Contains(string(r.Params), "2026-07-28") {
				p.fail(r.ID, -32004, `{"supported":["2027-01-01"],"requested":"2026-07-28"}`)
				return
			}
			modern(nil)(p, m)
		}, era: protocol.Modern, revision: "2027-01-01", discover: Refused, code: -32004, retried: "2027-01-01"},
		{name: "-32022 lists only legacy versions", script: legacy(refuse(-32022, `{"supported":["2025-03-26"],"requested":"2026-07-28"}`), nil),
			era: protocol.Legacy, revision: "2025-11-25", discover: Refused, code: -32022, story: "initialize answered", asked: "2025-03-26"},
		{name: "forced legacy sends no probe", script: legacy(refuse(-32601, ""), nil), opts: Options{Era: protocol.Legacy},
			era: protocol.Legacy, revision: "2025-11-25", discover: NotSent},
		{name: "forced modern", script: modern(nil), opts: Options{Era: protocol.Modern},
			era: protocol.Modern, revision: "2026-07-28", discover: Answered},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.DiscoverTimeout = 100 * time.Millisecond
			sess, p := connect(t, tt.script, opts)
			d := sess.Detection()
			if sess.Era() != tt.era || sess.Revision() != tt.revision || d.Era != tt.era || d.Version != tt.revision {
				t.Errorf("era %v %q (detection %v %q), want %v %q", sess.Era(), sess.Revision(), d.Era, d.Version, tt.era, tt.revision)
			}
			if d.Discover != tt.discover {
				t.Errorf("Discover = %v, want %v (%s)", d.Discover, tt.discover, d)
			}
			if tt.code != 0 && (d.DiscoverError == nil || d.DiscoverError.Code != tt.code) {
				t.Errorf("DiscoverError = %v, want code %d", d.DiscoverError, tt.code)
			}
			if d.Retried != tt.retried {
				t.Errorf("Retried = %q, want %q", d.Retried, tt.retried)
			}
			if !strings.Contains(d.String(), tt.story) {
				t.Errorf("Detection.String() = %q, want it to contain %q", d, tt.story)
			}
			inits := p.requests("initialize")
			if (tt.era == protocol.Legacy) != (len(inits) == 1) || d.Initialized != (tt.era == protocol.Legacy) {
				t.Errorf("%d initialize request(s), Initialized %v, for era %v", len(inits), d.Initialized, tt.era)
			}
			if tt.era == protocol.Legacy {
				want := tt.asked
				if want == "" {
					want = protocol.LatestLegacy.String()
				}
				if !strings.Contains(string(inits[0].Params), `"protocolVersion":"`+want+`"`) {
					t.Errorf("initialize asked %s, want %s", inits[0].Params, want)
				}
				p.waitFor(func(m jsonrpc.Message) bool {
					n, ok := m.(*jsonrpc.Notification)
					return ok && n.Method == "notifications/initialized"
				})
				if sess.ServerInfo().Name != "fake-legacy" {
					t.Errorf("ServerInfo = %+v, want fake-legacy", sess.ServerInfo())
				}
			} else if sess.ServerInfo().Name != "fake-modern" || sess.Capabilities().Tools == nil {
				t.Errorf("ServerInfo = %+v, capabilities %+v", sess.ServerInfo(), sess.Capabilities())
			}
			if got := len(p.requests("server/discover")); (tt.discover == NotSent) != (got == 0) {
				t.Errorf("%d server/discover sent, discover %v", got, tt.discover)
			}
		})
	}
}

// A server that answers nothing: the caller's context bounds Connect, and
// initialize is never cancelled.
func TestConnectSilentServer(t *testing.T) {
	p, conn := newPeer(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Connect(ctx, conn, Options{DiscoverTimeout: 50 * time.Millisecond})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Connect = %v, want a deadline error", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Connect took %v", d)
	}
	for _, m := range p.sent() {
		if n, ok := m.(*jsonrpc.Notification); ok && n.Method == "notifications/cancelled" {
			t.Errorf("the client cancelled a handshake request: %s", n.Params)
		}
	}
}

// Forced modern against a legacy server: the refusal is the error.
func TestConnectModernRefused(t *testing.T) {
	_, conn := newPeer(t, legacy(func(p *peer, r *jsonrpc.Request) { p.fail(r.ID, -32601, "") }, nil))
	_, err := Connect(bounded(t), conn, Options{Era: protocol.Modern})
	if !errors.Is(err, jsonrpc.ErrMethodNotFound) {
		t.Fatalf("Connect = %v, want -32601", err)
	}
}

// The handshakes carry what Options say.
func TestHandshakeParams(t *testing.T) {
	_, p := connect(t, legacy(nil, nil), Options{Era: protocol.Legacy, ProtocolVersion: "2025-06-18",
		ClientInfo: protocol.Implementation{Name: "tester", Version: "9"}, Handlers: Handlers{Roots: rootsAnswer}})
	init := p.requests("initialize")[0]
	want := `{"capabilities":{"roots":{}},"clientInfo":{"name":"tester","version":"9"},"protocolVersion":"2025-06-18"}`
	if !jsonEqual(t, init.Params, want) {
		t.Errorf("initialize params %s, want %s", init.Params, want)
	}
	_, p = connect(t, modern(nil), Options{Handlers: Handlers{Elicit: acceptAll}})
	meta := metaOf(t, p.requests("server/discover")[0])
	if string(meta["io.modelcontextprotocol/protocolVersion"]) != `"2026-07-28"` ||
		!jsonEqual(t, meta["io.modelcontextprotocol/clientCapabilities"], `{"elicitation":{}}`) ||
		!strings.Contains(string(meta["io.modelcontextprotocol/clientInfo"]), `"mcpwire-client"`) {
		t.Errorf("discover _meta %v", meta)
	}
}

func jsonEqual(t testing.TB, got json.RawMessage, want string) bool {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &b); err != nil {
		t.Fatalf("%s: %v", want, err)
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
