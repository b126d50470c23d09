package main

import (
	"context"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// dynamicToolName is the tool test_trigger_tool_change adds and removes.
const dynamicToolName = "test_dynamic_tool"

// noArgs is the input schema of tools that take no arguments.
var noArgs = json.RawMessage(`{"type":"object","properties":{}}`)

// lifecycleTools are the conformance suite's tools for change
// notifications, logging and capability checks; some need the server.
func lifecycleTools(srv *server) []tool.Tool {
	return []tool.Tool{
		{
			Name:        "test_trigger_tool_change",
			Description: "Adds test_dynamic_tool if it is absent and removes it if present, so that tools/list changes and list_changed notifications fire.",
			InputSchema: noArgs,
			Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
				if srv.RemoveTool(dynamicToolName) {
					return tool.TextResult("removed " + dynamicToolName), nil
				}
				if err := srv.AddTool(dynamicTool()); err != nil {
					return nil, err
				}
				return tool.TextResult("added " + dynamicToolName), nil
			},
		},
		{
			Name:        "test_tool_with_logging",
			Description: "Logs three info messages about 50 ms apart while it runs.",
			InputSchema: noArgs,
			Handler: func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
				log := mcp.Logger(ctx)
				for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
					if i > 0 {
						if err := sleep(ctx, 50*time.Millisecond); err != nil {
							return nil, err
						}
					}
					log.Info(msg)
				}
				return tool.TextResult("Tool with logging executed successfully"), nil
			},
		},
		{
			Name:        "test_logging_tool",
			Description: "Logs one message at each level; the client receives only those at or above the level it asked for, and none when it asked for none.",
			InputSchema: noArgs,
			Handler: func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
				log := mcp.Logger(ctx)
				log.Debug("debug message from test_logging_tool")
				log.Info("info message from test_logging_tool")
				log.Warn("warning message from test_logging_tool")
				log.Error("error message from test_logging_tool")
				return tool.TextResult("Logging test completed"), nil
			},
		},
		{
			Name:        "test_missing_capability",
			Description: "Needs the client's sampling capability: answers -32021 unless the request declares it.",
			InputSchema: noArgs,
			Handler: func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
				if err := ask.Require(ctx, "sampling"); err != nil {
					return nil, err
				}
				return tool.TextResult("Success"), nil
			},
		},
		srv.watched.triggerTool(),
		promptChangeTool(srv.Server),
	}
}

// dynamicTool is the tool that test_trigger_tool_change toggles.
func dynamicTool() tool.Tool {
	return tool.Tool{
		Name:        dynamicToolName,
		Description: "A tool that comes and goes, added and removed by test_trigger_tool_change.",
		InputSchema: noArgs,
		Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
			return tool.TextResult("dynamic tool called"), nil
		},
	}
}
