package mcp_test

import (
	"context"
	"fmt"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// An extension adds a method, com.example/shout's shout/say, served to
// 2026-07-28 clients beside the built-in ones: its params decoded
// strictly, its result given resultType and the server's identity.
func ExampleExtension() {
	type sayParams struct {
		Text string `json:"text"`
	}
	type sayResult struct {
		protocol.Envelope
		Shouted string `json:"shouted"`
	}
	shout := mcp.Extension{
		ID:         "com.example/shout",
		Capability: protocol.Object{"loudness": json.RawMessage(`11`)},
		Methods: []mcp.Method{{Name: "shout/say", Handler: mcp.Handle(
			func(_ context.Context, p *sayParams) (*sayResult, error) {
				return &sayResult{Shouted: strings.ToUpper(p.Text) + "!"}, nil
			})}},
	}
	srv := mcp.NewServer(mcp.Implementation{Name: "loud", Version: "1"}, &mcp.Options{Extensions: []mcp.Extension{shout}})

	serverEnd, client := transport.Pipe(transport.Options{})
	go srv.Serve(context.Background(), serverEnd)
	defer client.Close()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	client.Write(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "shout/say",
		Params: json.RawMessage(`{"text":"hello",` + meta + `}`)})
	msg, _ := client.Read(context.Background())
	var res struct {
		ResultType string `json:"resultType"`
		Shouted    string `json:"shouted"`
	}
	json.Unmarshal(msg.(*jsonrpc.Response).Result, &res)
	fmt.Println(res.ResultType, res.Shouted)
	// Output: complete HELLO!
}
