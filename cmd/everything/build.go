package main

import (
	"log/slog"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// serverOptions returns the options of the server the settings describe,
// logging to logger: the command builds its server with them, and so do
// the golden tests, from a transcript's config read as the command line.
func (s *settings) serverOptions(logger *slog.Logger) *mcp.Options {
	var mw []tool.Middleware
	if s.deployed() {
		mw = append(mw, s.calls.middleware)
	}
	var exts []mcp.Extension
	if s.skills {
		set, err := skillsExtension()
		if err != nil {
			panic(err) // the embedded skills are checked by the tests
		}
		exts = append(exts, set.Extension())
	}
	return &mcp.Options{
		Extensions:     exts,
		ToolMiddleware: mw,
		PageSize:       s.pageSize, ShutdownGrace: s.grace, Logger: logger,
		Caller: s.caller, CompletionRate: s.completionRate,
		InputStateTTL: s.inputStateTTL, ClientRequestTimeout: s.clientRequestTimeout,
		TaskTTL:  s.taskTTL,
		StateKey: []byte(s.stateKey),
	}
}

// transportOptions returns the framing of stdio the settings ask for.
func (s *settings) transportOptions() transport.Options {
	return transport.Options{MaxMessageBytes: s.maxMsg}
}
