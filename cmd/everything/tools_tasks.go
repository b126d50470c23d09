package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// The tools of the conformance suite's tasks scenarios (the tasks
// extension, SEP-2663), named and shaped as the suite requires. They are
// listed only to requests that declare io.modelcontextprotocol/tasks
// (mcp.TaskToolOptions.TaskClientsOnly): the scenarios call them only
// from such requests, except the synchronous fall-through of slow_compute
// and the -32021 of failing_job, which call without the declaration and
// need no listing; every other client's tools/list stays as it was.

// taskTool is a tool of the tasks scenarios and how it takes part.
type taskTool struct {
	tool tool.Tool
	opts mcp.TaskToolOptions
}

func taskTools() []taskTool {
	only := func(s mcp.TaskSupport) mcp.TaskToolOptions {
		return mcp.TaskToolOptions{Support: s, TaskClientsOnly: true}
	}
	return []taskTool{
		{greetTool(), only(mcp.TaskNever)},
		{slowComputeTool(), only(mcp.TaskOptional)},
		{failingJobTool(), only(mcp.TaskRequired)},
		{protocolErrorJobTool(), only(mcp.TaskRequired)},
		{confirmDeleteTool(), only(mcp.TaskOptional)},
		{multiInputTool(), only(mcp.TaskOptional)},
		{toolWithTask(), mcp.TaskToolOptions{Support: mcp.TaskRequired, Deferred: true, TaskClientsOnly: true}},
	}
}

type greetArgs struct {
	Name string `json:"name" description:"Who to greet."`
}

func greetTool() tool.Tool {
	return tool.New("greet", "Greets name (no task support): Hello, {name}!",
		func(_ context.Context, in greetArgs) (*tool.Result, error) {
			return tool.TextResult("Hello, " + in.Name + "!"), nil
		})
}

type computeArgs struct {
	Seconds float64 `json:"seconds" description:"How long to work, in seconds (0: at once)."`
	Label   string  `json:"label,omitempty" description:"A label repeated in the result."`
}

func slowComputeTool() tool.Tool {
	return tool.New("slow_compute", "Works for seconds, then answers (a task when the client uses tasks; cancellable).",
		func(ctx context.Context, in computeArgs) (*tool.Result, error) {
			if err := sleep(ctx, time.Duration(in.Seconds*float64(time.Second))); err != nil {
				return nil, err
			}
			return tool.TextResult(fmt.Sprintf("Computed %s in %gs", in.Label, in.Seconds)), nil
		})
}

func failingJobTool() tool.Tool {
	return tool.New("failing_job", "Runs only as a task; after about a second reports a tool error (a completed task with isError).",
		func(ctx context.Context, _ struct{}) (*tool.Result, error) {
			if err := sleep(ctx, time.Second); err != nil {
				return nil, err
			}
			return nil, errors.New("failing_job failed, as it always does")
		})
}

func protocolErrorJobTool() tool.Tool {
	return tool.New("protocol_error_job", "Runs only as a task and panics: a failed task carrying the -32603 error.",
		func(context.Context, struct{}) (*tool.Result, error) {
			panic("protocol_error_job always panics")
		})
}

type deleteArgs struct {
	Filename string `json:"filename" description:"The file to pretend to delete."`
}

type confirmForm struct {
	Confirm bool `json:"confirm"`
}

func confirmDeleteTool() tool.Tool {
	return tool.New("confirm_delete", "Asks the user to confirm (elicitation, key confirm), then reports whether filename was deleted.",
		func(ctx context.Context, in deleteArgs) (*tool.Result, error) {
			reply, err := ask.ElicitAs[confirmForm](ctx, "Delete "+in.Filename+"?", ask.Key("confirm"))
			if err != nil {
				return nil, err
			}
			if !reply.Accepted() || !reply.Content.Confirm {
				return tool.TextResult("Kept " + in.Filename), nil
			}
			return tool.TextResult("Deleted " + in.Filename), nil
		})
}

type partialForm struct {
	Name    string `json:"name,omitempty"`
	Confirm bool   `json:"confirm,omitempty"`
}

func multiInputTool() tool.Tool {
	return tool.New("multi_input", "Asks two questions at once (keys first and second) and answers with both replies.",
		func(ctx context.Context, _ struct{}) (*tool.Result, error) {
			first, err1 := ask.ElicitAs[partialForm](ctx, "First question: your name?", ask.Key("first"))
			second, err2 := ask.ElicitAs[partialForm](ctx, "Second question: confirm?", ask.Key("second"))
			if err := errors.Join(err1, err2); err != nil {
				return nil, err
			}
			return tool.TextResult(fmt.Sprintf("first=%s second=%s", first.Content.Name, second.Content.Name)), nil
		})
}

func toolWithTask() tool.Tool {
	return tool.New("test_tool_with_task", "Asks the user's name (key user_name) on its request, then goes on as a task that greets them.",
		func(ctx context.Context, _ struct{}) (*tool.Result, error) {
			reply, err := ask.ElicitAs[nameForm](ctx, "What is your name?", ask.Key("user_name"))
			if err != nil {
				return nil, err
			}
			mcp.StartTask(ctx)
			if err := sleep(ctx, 100*time.Millisecond); err != nil {
				return nil, err
			}
			return tool.TextResult("Hello, " + reply.Content.Name + "! (from a task)"), nil
		})
}
