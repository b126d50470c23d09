package jsonrpc_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func ExampleDecode() {
	lines := []string{
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"echo"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"a","Name":"b"}}`,
		`not json`,
	}
	for _, line := range lines {
		msg, err := jsonrpc.Decode([]byte(line))
		var de *jsonrpc.DecodeError
		switch m := msg.(type) {
		case *jsonrpc.Request:
			fmt.Printf("request %s %s %s\n", m.ID, m.Method, m.Params)
		case *jsonrpc.Notification:
			fmt.Printf("notification %s\n", m.Method)
		default:
			if errors.As(err, &de) {
				out, _ := jsonrpc.Marshal(de.Response())
				fmt.Printf("answer %s\n", out)
			}
		}
	}
	// Output:
	// request 9007199254740993 tools/call {"name":"echo"}
	// notification notifications/initialized
	// answer {"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"invalid request: keys \"name\" and \"Name\" differ only in case"}}
	// answer {"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error: invalid JSON at byte 0"}}
}

func ExampleMarshal() {
	resp := &jsonrpc.Response{
		ID:     jsonrpc.StringID("call-1"),
		Result: json.RawMessage(`{"content":[{"type":"text","text":"hi"}]}`),
	}
	out, _ := jsonrpc.Marshal(resp)
	fmt.Println(string(out))

	out, _ = jsonrpc.Marshal(jsonrpc.NewErrorResponse(jsonrpc.Int64ID(2), errors.New("disk full")))
	fmt.Println(string(out))
	// Output:
	// {"jsonrpc":"2.0","id":"call-1","result":{"content":[{"type":"text","text":"hi"}]}}
	// {"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"internal error: disk full"}}
}

func ExampleOversizeError() {
	// The first bytes of a line longer than the limit, which was dropped.
	prefix := []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"x":"aaaa`)
	out, _ := jsonrpc.Marshal(jsonrpc.OversizeError(prefix, 4<<20).Response())
	fmt.Println(string(out))
	// Output: {"jsonrpc":"2.0","id":42,"error":{"code":-32600,"message":"invalid request: message exceeds the 4194304-byte limit"}}
}

func ExampleAppendResponseHead() {
	result := []byte(`{"content":[{"type":"text","text":"a long text"}]}`)
	line := jsonrpc.AppendResponseHead(nil, jsonrpc.Int64ID(7))
	line = append(line, result...) // written from the result's own bytes
	line = append(line, '}')
	same, _ := jsonrpc.Marshal(&jsonrpc.Response{ID: jsonrpc.Int64ID(7), Result: result})
	fmt.Println(string(line))
	fmt.Println(string(line) == string(same))
	// Output:
	// {"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"a long text"}]}}
	// true
}

func ExampleWireError() {
	wrapped := fmt.Errorf("loading: %w", jsonrpc.NewError(jsonrpc.CodeInvalidParams, "missing %q", "uri"))
	fmt.Println(errors.Is(wrapped, jsonrpc.ErrInvalidParams))
	fmt.Println(jsonrpc.WireError(wrapped).Code, jsonrpc.WireError(errors.New("boom")).Code)
	// Output:
	// true
	// -32602 -32603
}

func ExampleID_Key() {
	a, _ := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":"a","method":"m"}`))
	b, _ := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":"\u0061","method":"m"}`))
	idA, idB := a.(*jsonrpc.Request).ID, b.(*jsonrpc.Request).ID
	fmt.Println(idA.Raw(), idB.Raw(), idA.Key() == idB.Key())
	fmt.Println(jsonrpc.Int64ID(1).Key() == jsonrpc.StringID("1").Key())
	// Output:
	// "a" "\u0061" true
	// false
}
