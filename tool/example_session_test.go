package tool_test

import (
	"github.com/mcpwire/mcpwire/internal/testsupport/exampleclient"
	"github.com/mcpwire/mcpwire/tool"
)

// callTool calls t once through a real server and prints what the client
// receives.
func callTool(t tool.Tool, args string) { exampleclient.CallTool(t, "", args) }
