package tool_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/testsupport/syncbuf"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// serve runs srv over an in-memory connection and returns a function that
// sends one request and returns its result.
func serve(t *testing.T, srv *mcp.Server) func(method, params string) json.RawMessage {
	t.Helper()
	client, server := transport.Pipe(transport.Options{})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), server) }()
	t.Cleanup(func() {
		client.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("server did not stop")
		}
	})
	id := int64(0)
	return func(method, params string) json.RawMessage {
		t.Helper()
		id++
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := client.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: method, Params: json.RawMessage(params)}); err != nil {
			t.Fatal(err)
		}
		for {
			msg, err := client.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if res, ok := msg.(*jsonrpc.Response); ok {
				if res.Error != nil {
					t.Fatalf("%s: error %v", method, res.Error)
				}
				return res.Result
			}
		}
	}
}

// End to end: the server validates arguments, runs the typed handler,
// replaces a result that breaks the contract and logs the violation.
func TestServerEnforcesTheContract(t *testing.T) {
	var logs syncbuf.Buffer
	srv := mcp.NewServer(mcp.Implementation{Name: "t", Version: "1"},
		&mcp.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	srv.MustAddTool(reportTool())
	call := serve(t, srv)
	call("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`)

	tests := []struct {
		name, args string
		want       string // a substring of the result
		logged     bool
	}{
		{"valid", `{"region":"eu"}`, `"structuredContent":{"accepted":true,"region":"eu","days":2}`, false},
		{"invalid arguments", `{"region":1}`, `invalid arguments for tool report:\n- /region: 1 should be a string, not an integer (type)`, false},
		{"failure inside the contract", `{"region":"mars"}`, `"structuredContent":{"accepted":false,"region":"mars"},"isError":true`, false},
		{"broken contract", `{"region":"void"}`, `breaks its contract, so it was not sent`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := logs.String()
			res := call("tools/call", `{"name":"report","arguments":`+tt.args+`}`)
			if !strings.Contains(string(res), tt.want) {
				t.Errorf("result %s lacks %s", res, tt.want)
			}
			if strings.Contains(string(res), `"days":-1`) {
				t.Errorf("the bad result was sent: %s", res)
			}
			logged := strings.Contains(strings.TrimPrefix(logs.String(), before), "broke its own contract")
			if logged != tt.logged {
				t.Errorf("logged = %v, want %v; logs:\n%s", logged, tt.logged, logs.String())
			}
		})
	}
}
