package mcp

import (
	"bytes"
	"context"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/task"
	"github.com/mcpwire/mcpwire/tool"
)

// The tasks extension (io.modelcontextprotocol/tasks, SEP-2663) in the
// 2026-07-28 era. The rules below are those the conformance suite
// 0.2.0-alpha.12 states for its ten tasks-* scenarios, which stand in for
// the extension's text (not in the spec snapshot):
//
//   - Negotiation (tasks-capability-negotiation): the server advertises
//     the extension under capabilities.extensions in server/discover, never
//     a v1 capabilities.tasks. tasks/get, tasks/update and tasks/cancel
//     exist only for requests whose _meta clientCapabilities declare the
//     extension: for others they are -32021 with
//     data.requiredCapabilities.extensions naming it. The declaration is
//     per request: a request that carries it gets tasks, one that does not
//     gets none.
//   - Creation (tasks-lifecycle, tasks-dispatch-and-envelope): the server
//     alone decides; a client's v1 "task" param is ignored and never makes
//     a task of a tool without task support. A task-supporting tool called
//     by a declaring request answers CreateTaskResult, a flat
//     {resultType:"task", taskId, status, createdAt, lastUpdatedAt, ttlMs,
//     pollIntervalMs} without result, error, inputRequests or requestState
//     (protocol.CreateTaskResult, as the extension's other shapes are in
//     package protocol), and only once the record is in the store (an
//     immediate tasks/get finds it). An optional-task tool that completes
//     within Options.TaskGrace answers its result instead (the
//     immediate-result shortcut). Called without the declaration, an
//     optional-task tool runs as an ordinary call; a required-task tool is
//     -32021 (tasks-required-task-error).
//   - Lifecycle: working, input_required, completed, failed, cancelled.
//     A tool that ran and returned an error is completed with its isError
//     result; failed is for a call that could not produce a result (a
//     panic, a JSON-RPC error the handler returned), with the error
//     object inlined and no result. tasks/get inlines result, error or
//     inputRequests by status (no tasks/result, no tasks/list: both
//     -32601, as any unknown method), without the v1 related-task _meta.
//     ttlMs and pollIntervalMs are integer milliseconds (tasks-wire-fields);
//     a task is kept at least ttlMs after its last update. A working task
//     is not updated while its handler runs, so one that runs longer than
//     Options.TaskTTL expires meanwhile: its handler's context is then
//     cancelled with ErrTaskExpired (a tasks/cancel of it is -32602), since
//     its outcome could never be read. Set TaskTTL above the longest run.
//   - Input (tasks-mrtr-input): a task whose handler asks the client
//     (package ask) is input_required with the questions under
//     inputRequests; tasks/update delivers inputResponses and is acked with
//     an empty {resultType:"complete"}; answers to some questions are kept
//     and only the unanswered stay listed; once none is pending the
//     handler runs again with every answer, as an MRTR retry does. Keys
//     not asked are ignored.
//   - Composition (tasks-mrtr-composition): a tool registered with
//     TaskToolOptions.Deferred runs on its request, answering
//     input_required rounds with requestState as any call does, until its
//     handler calls StartTask; that round answers CreateTaskResult.
//   - Cancellation: tasks/cancel is acked with an empty
//     {resultType:"complete"}, for a terminal task too (idempotent); the
//     task becomes cancelled and its handler's context is cancelled.
//     Unknown task ids (never created, expired, or another caller's) are
//     -32602 for every tasks method.
//   - Status notifications (tasks-status-notifications, optional; the
//     extension's draft text for their shape): a subscriptions/listen
//     whose notifications.taskIds name the caller's tasks gets
//     notifications/tasks, the task as tasks/get answers it, on every
//     change of its state, across instances through Options.Broker (see
//     task_notify.go).
//   - Quota (this server's, not the extension's): a task counts against
//     its caller (task.Task.Caller: the principal's subject, else the
//     remote address) from its creation until it expires, terminal or not,
//     since a record may not be dropped before its TTL; one caller's task
//     beyond Options.MaxTasksPerCaller is refused with CodeQuotaExceeded,
//     a task beyond the store's own bound as overloaded. The store keeps
//     the count, atomically with each creation, across instances.
//   - HTTP (tasks-request-headers): Mcp-Name carries params.taskId on
//     tasks/get, tasks/update and tasks/cancel and is checked like a tool
//     name (package mcphttp).
//
// The handler of a task is the tool's ordinary handler: its context
// carries the caller and the request's details, progress and log messages
// have no request to go with and are dropped, and package ask works as in
// an MRTR call.

// TasksExtension is the identifier of the tasks extension.
const TasksExtension = "io.modelcontextprotocol/tasks"

// Defaults of the task options.
const (
	defaultTaskTTL          = time.Hour
	defaultTaskPollInterval = 500 * time.Millisecond
	defaultTaskGrace        = 50 * time.Millisecond
)

// TaskSupport is whether a tool's calls may become tasks.
type TaskSupport int

const (
	// TaskNever: calls are always answered on their request.
	TaskNever TaskSupport = iota
	// TaskOptional: a call from a request that declares the extension
	// becomes a task; one from any other request runs as usual.
	TaskOptional
	// TaskRequired: the tool runs only as a task; a request that does
	// not declare the extension gets -32021.
	TaskRequired
)

// TaskToolOptions say how a tool takes part in the tasks extension.
type TaskToolOptions struct {
	// Support is whether its calls become tasks.
	Support TaskSupport
	// Deferred calls run on their request, answering input_required
	// rounds as any call, until the handler calls StartTask: the request
	// then gets CreateTaskResult and the handler goes on as the task.
	Deferred bool
	// TaskClientsOnly lists the tool in tools/list only to requests that
	// declare the extension. Others may still call it.
	TaskClientsOnly bool
}

// AddTaskTool registers t as AddTool does, taking part in the tasks
// extension as o says. The server advertises the extension once it has a
// tool with task support.
func (s *Server) AddTaskTool(t tool.Tool, o TaskToolOptions) error {
	return s.addTool(t, o)
}

// StartTask makes the call of ctx a task from here on, when its tool was
// registered with TaskToolOptions.Deferred and the request declared the
// extension: it stores the task, the request is answered with
// CreateTaskResult, and the handler goes on as the task. It reports
// whether the handler now runs as a task (true too when it already did),
// false when the call stays an ordinary one.
func StartTask(ctx context.Context) bool {
	run, _ := ctx.Value(taskRunKey{}).(*taskRun)
	if run == nil {
		return false
	}
	return run.start()
}

func (c *Options) taskDefaults() {
	if c.TaskTTL == 0 {
		c.TaskTTL = defaultTaskTTL
	}
	if c.TaskPollInterval <= 0 {
		c.TaskPollInterval = defaultTaskPollInterval
	}
	if c.TaskGrace == 0 {
		c.TaskGrace = defaultTaskGrace
	}
	if c.TaskStore == nil {
		c.TaskStore = task.NewMemory(0)
	}
}

// taskCall reports whether r is a tools/call that starts a task: a modern
// request that declares the extension, of a tool that supports tasks. A
// quick look for the extension's name spares the other calls the rest.
func (ss *session) taskCall(r *request) bool {
	if r.method != protocol.MethodCallTool || !bytes.Contains(r.clientCaps, []byte(TasksExtension)) || !declaresTasks(r) {
		return false
	}
	raw := r.params.Get("name")
	if len(raw) < 2 || raw[0] != '"' {
		return false
	}
	var name string
	if json.Unmarshal(raw, &name) != nil {
		return false
	}
	e, ok := toolList.get(ss.srv, name)
	return ok && e.task.Support != TaskNever
}

// declaresTasks reports whether a modern request's clientCapabilities
// declare the extension.
func declaresTasks(r *request) bool {
	if !r.modern() {
		return false
	}
	caps, err := jsonx.ParseObject(r.clientCaps)
	if err != nil {
		return false
	}
	ext, err := jsonx.ParseObject(caps.Get("extensions"))
	if err != nil {
		return false
	}
	v := ext.Get(TasksExtension)
	return v != nil && jsonx.FirstByte(v) == '{'
}

// missingTasks is the -32021 error of a request that needs the extension.
func missingTasks(what string) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeMissingRequiredClientCapability,
		"missing client capability: %s needs the %s extension, which the request did not declare in _meta clientCapabilities.extensions", what, TasksExtension).
		WithData(map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{TasksExtension: map[string]any{}}}})
}

// hasTaskTools reports whether any registered tool has task support.
func (s *Server) hasTaskTools() bool {
	tools, _ := toolList.snapshot(s)
	for _, e := range tools {
		if e.task.Support != TaskNever {
			return true
		}
	}
	return false
}
