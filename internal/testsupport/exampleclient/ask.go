package exampleclient

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// Answer is the example client's answer to one question of the server:
// the result of method (elicitation/create, sampling/createMessage,
// roots/list) as JSON.
type Answer func(method string, params json.RawMessage) string

// Converse calls t once in each era with a client that declares caps (a
// JSON capabilities object) and answers the server's questions with
// answer, printing what the server asked and the text of the result: in
// the legacy era the questions are requests to the client, in 2026-07-28
// rounds of input_required.
func Converse(t tool.Tool, caps string, answer Answer) {
	srv := mcp.NewServer(mcp.Implementation{Name: "example", Version: "1"},
		&mcp.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err := srv.AddTool(t); err != nil {
		fmt.Println(err)
		return
	}
	for _, era := range []string{"legacy", "modern"} {
		fmt.Println(era + ":")
		serverEnd, client := transport.Pipe(transport.Options{})
		done := make(chan error, 1)
		go func() { done <- srv.Serve(context.Background(), serverEnd) }()
		if era == "legacy" {
			legacy(client, t.Name, caps, answer)
		} else {
			modern(client, t.Name, caps, answer)
		}
		client.Close()
		<-done
	}
}

func legacy(client transport.Conn, name, caps string, answer Answer) {
	ctx := context.Background()
	client.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "initialize", Params: json.RawMessage(
		`{"protocolVersion":"2025-11-25","capabilities":` + caps + `,"clientInfo":{"name":"example","version":"1"}}`)})
	client.Read(ctx)
	client.Write(ctx, &jsonrpc.Notification{Method: "notifications/initialized"})
	client.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(2), Method: "tools/call", Params: json.RawMessage(`{"name":"` + name + `"}`)})
	for {
		msg, err := client.Read(ctx)
		if err != nil {
			fmt.Println("  read:", err)
			return
		}
		switch m := msg.(type) {
		case *jsonrpc.Request:
			fmt.Println("  the server asks:", m.Method)
			client.Write(ctx, &jsonrpc.Response{ID: m.ID, Result: json.RawMessage(answer(m.Method, m.Params))})
		case *jsonrpc.Response:
			printResult(m)
			return
		}
	}
}

func modern(client transport.Conn, name, caps string, answer Answer) {
	ctx := context.Background()
	meta := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
	extra := ""
	for id := int64(1); id < 10; id++ {
		client.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: "tools/call", Params: json.RawMessage(
			`{"name":"` + name + `","_meta":` + meta + extra + `}`)})
		msg, err := client.Read(ctx)
		if err != nil {
			fmt.Println("  read:", err)
			return
		}
		res := msg.(*jsonrpc.Response)
		var out protocol.Outcome[protocol.CallToolResult]
		if res.Error != nil || json.Unmarshal(res.Result, &out) != nil || out.InputRequired == nil {
			printResult(res)
			return
		}
		keys := make([]string, 0, len(out.InputRequired.InputRequests))
		for k := range out.InputRequired.InputRequests {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		responses := map[string]json.RawMessage{}
		for _, k := range keys {
			raw, _ := json.Marshal(out.InputRequired.InputRequests[k])
			var q struct {
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			}
			json.Unmarshal(raw, &q)
			fmt.Printf("  input_required: %s (%s)\n", k, q.Method)
			responses[k] = json.RawMessage(answer(q.Method, q.Params))
		}
		r, _ := json.Marshal(responses)
		s, _ := json.Marshal(out.InputRequired.RequestState)
		extra = `,"inputResponses":` + string(r) + `,"requestState":` + string(s)
	}
}

func printResult(res *jsonrpc.Response) {
	if res.Error != nil {
		fmt.Printf("  error %d: %s\n", res.Error.Code, res.Error.Message)
		return
	}
	var r protocol.CallToolResult
	json.Unmarshal(res.Result, &r)
	var texts []string
	for _, c := range r.Content {
		if c.Text != nil {
			texts = append(texts, c.Text.Text)
		}
	}
	fmt.Println("  result:", strings.Join(texts, " "))
}
