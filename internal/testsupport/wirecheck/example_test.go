package wirecheck_test

import (
	"fmt"

	"github.com/mcpwire/mcpwire/internal/testsupport/wirecheck"
)

func ExampleChecker_Definition() {
	c, err := wirecheck.Load("../../../testdata/schema")
	if err != nil {
		panic(err)
	}
	tool := []byte(`{"name":"echo","title":"Echo","inputSchema":{"type":"object"}}`)
	for _, rev := range []string{"2024-11-05", "2025-06-18"} {
		fmt.Printf("%s: %v\n", rev, c.Definition(rev, "Tool", tool))
	}
	// Output:
	// 2024-11-05: wirecheck: 2024-11-05 Tool: /title: key "title" is not defined by 2024-11-05 Tool
	// 2025-06-18: <nil>
}

func ExampleChecker_ServerMessage() {
	c, err := wirecheck.Load("../../../testdata/schema")
	if err != nil {
		panic(err)
	}
	lines := []struct{ rev, method, line string }{
		{"2025-06-18", "tools/call", `{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"n":1}}}`},
		{"2025-03-26", "tools/call", `{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"n":1}}}`},
		{"2025-06-18", "", `{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"}}`},
		{"2025-11-25", "", `{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"}}`},
	}
	for _, l := range lines {
		fmt.Printf("%s: %v\n", l.rev, c.ServerMessage(l.rev, l.method, []byte(l.line)))
	}
	// Output:
	// 2025-06-18: <nil>
	// 2025-03-26: wirecheck: 2025-03-26 response to "tools/call" (CallToolResult): /result/structuredContent: key "structuredContent" is not defined by 2025-03-26 CallToolResult
	// 2025-06-18: wirecheck: 2025-06-18 error response (JSONRPCError): (root): Required property 'id' is missing [required at #]
	// 2025-11-25: <nil>
}

func ExampleMethods() {
	for _, m := range wirecheck.Methods() {
		if m.Name == "tools/call" || m.Name == "notifications/progress" {
			fmt.Printf("%s: %s %s\n", m.Name, m.Message, m.Result)
		}
	}
	// Output:
	// tools/call: CallToolRequest CallToolResult
	// notifications/progress: ProgressNotification
}
