package redisbroker_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/redisbroker"
)

// newInstance returns one instance of a deployment joined through Redis,
// closed at the end of the test.
func newInstance(t *testing.T, b *redisbroker.Broker) *mcp.Server {
	log, _ := testLogger(t, "server")
	srv := mcp.NewServer(mcp.Implementation{Name: "fleet", Version: "1"}, &mcp.Options{Broker: b, Logger: log})
	srv.MustAddResource(mcp.Resource{URI: "test://doc", Name: "doc", Read: mcp.StaticRead("v1")})
	t.Cleanup(func() { srv.Close() })
	return srv
}

// listenOn opens a 2026-07-28 listen stream following test://doc on a
// stateless endpoint of srv, as an HTTP POST would, and returns what the
// stream carries after its acknowledgement.
func listenOn(t *testing.T, srv *mcp.Server) <-chan jsonrpc.Message {
	ep := srv.NewEndpoint(mcp.EndpointOptions{Stateless: true})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); ep.Close() })
	stream := make(chan jsonrpc.Message, 64)
	params, _ := json.Marshal(map[string]any{
		"_meta": map[string]any{
			protocol.MetaProtocolVersion:    "2026-07-28",
			protocol.MetaClientCapabilities: map[string]any{},
			protocol.MetaClientInfo:         map[string]any{"name": "t", "version": "1"},
		},
		"notifications": map[string]any{"resourceSubscriptions": []string{"test://doc"}},
	})
	ep.Handle(ctx, &jsonrpc.Request{ID: jsonrpc.StringID("L"), Method: "subscriptions/listen", Params: params},
		func(m jsonrpc.Message) {
			select {
			case stream <- m:
			default:
				t.Error("listen stream overflow")
			}
		})
	select {
	case m := <-stream:
		if n, ok := m.(*jsonrpc.Notification); !ok || n.Method != "notifications/subscriptions/acknowledged" {
			t.Fatalf("listen: %+v", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("listen: no acknowledgement")
	}
	return stream
}

// touchUntilHeard raises resources/updated on a until b's stream carries
// it, since the stream hears nothing before its instance's subscription
// is in place (at start, and again after an outage).
func touchUntilHeard(t *testing.T, a *mcp.Server, stream <-chan jsonrpc.Message) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		a.ResourceUpdated("test://doc")
		select {
		case m := <-stream:
			n, ok := m.(*jsonrpc.Notification)
			if !ok || n.Method != "notifications/resources/updated" ||
				string(n.Params) != `{"uri":"test://doc","_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}` {
				t.Fatalf("on the stream: %+v", m)
			}
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatal("the update raised on A never reached B's listen stream")
}

// A resource update raised on instance A reaches a listen stream held on
// instance B through Redis; Redis crashes and comes back, and the fan-out
// resumes without anything being restarted, the outage's losses counted on
// both sides.
func TestServersThroughRedis(t *testing.T) {
	r := startRedis(t)
	brokerA := redisbroker.New(r.client(), &redisbroker.Options{Logger: brokerLog(t)})
	brokerB := redisbroker.New(r.client(), &redisbroker.Options{Logger: brokerLog(t)})
	a, b := newInstance(t, brokerA), newInstance(t, brokerB)
	stream := listenOn(t, b)
	touchUntilHeard(t, a, stream)

	r.kill()
	const outage = 3
	for range outage {
		a.ResourceUpdated("test://doc")
	}
	eventually(t, 30*time.Second, "A's publishes fail", func() bool { return brokerA.Stats().PublishFailed == outage })
	r.start()
	touchUntilHeard(t, a, stream)
	if s := brokerB.Stats(); s.Restored < 1 || s.Missed < outage {
		t.Errorf("B: %+v", s)
	}
}

func brokerLog(t *testing.T) *slog.Logger {
	log, _ := testLogger(t, "broker")
	return log
}
