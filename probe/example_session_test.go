package probe_test

import "github.com/mcpwire/mcpwire/internal/testsupport/exampleclient"

// callTool calls a tool once through a real server, with meta as the
// request's _meta, and prints what the client receives.
var callTool = exampleclient.CallTool
