package protocol

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/task"
)

// The tasks extension (io.modelcontextprotocol/tasks, SEP-2663) of
// 2026-07-28. Its shapes are not in the schema snapshot; they follow the
// extension's draft as the conformance suite 0.2.0-alpha.12 states it
// (tasks-wire-fields, tasks-lifecycle, tasks-mrtr-input,
// tasks-status-notifications). A client that declares the extension in a
// request's _meta clientCapabilities.extensions may get a CreateTaskResult
// from tools/call instead of the tool's result; it then follows the task
// with tasks/get, answers its questions with tasks/update, stops it with
// tasks/cancel, and may follow it on a subscriptions/listen stream, which
// sends notifications/tasks.

// Methods of the tasks extension.
const (
	MethodGetTask    = "tasks/get"
	MethodUpdateTask = "tasks/update"
	MethodCancelTask = "tasks/cancel"
	// NotificationTaskStatus tells a subscriptions/listen stream that
	// follows a task of the task's new state.
	NotificationTaskStatus = "notifications/tasks"
)

// ResultTypeTask is the resultType of a CreateTaskResult: the request
// became a task, and its result comes later, through tasks/get.
const ResultTypeTask ResultType = "task"

// TaskStatus is where a task is in its lifecycle: working, input_required,
// completed, failed or cancelled (the last three are terminal). The values
// are those of package task, which keeps the records the server sends
// (task.Working, task.InputRequired, task.Completed, task.Failed and
// task.Cancelled): one definition serves the store and the wire.
type TaskStatus = task.Status

// Task is what every message about a task carries.
type Task struct {
	// TaskID names the task in tasks/get, tasks/update and tasks/cancel;
	// required. It is unguessable: knowing it is what lets its creator
	// follow the task.
	TaskID string `json:"taskId"`
	// Status is the task's status; required.
	Status TaskStatus `json:"status"`
	// StatusMessage describes the status, such as why a task failed.
	StatusMessage string `json:"statusMessage,omitempty"`
	// CreatedAt is when the task was created, an ISO 8601 timestamp;
	// required.
	CreatedAt string `json:"createdAt"`
	// LastUpdatedAt is when the task last changed, an ISO 8601 timestamp;
	// required.
	LastUpdatedAt string `json:"lastUpdatedAt"`
	// TTLMs is how long, in integer milliseconds, the server keeps the
	// task after its last update; nil for no limit. Required: nil is sent
	// as null, never left out (a message lacking the member decodes as
	// nil too, and so encodes back with null).
	TTLMs *int64 `json:"ttlMs"`
	// PollIntervalMs suggests how often, in integer milliseconds, to
	// poll the task with tasks/get.
	PollIntervalMs *int64 `json:"pollIntervalMs,omitempty"`
}

// DetailedTask is a task with what its status carries inlined: the result
// of a completed task, the error of a failed one, the pending questions of
// one that is input_required. At most one of Result, Error and
// InputRequests is set, by status; a working or cancelled task has none.
type DetailedTask struct {
	// Task holds the members every task message carries.
	Task
	// Result is the CallToolResult of a completed task's tools/call, as
	// the server encoded it (decode it into a [CallToolResult]). A tool
	// that reported an error completes with its isError result.
	Result json.RawMessage `json:"result,omitempty"`
	// Error is the JSON-RPC error of a failed task: a call that could
	// not produce a result.
	Error *jsonrpc.Error `json:"error,omitempty"`
	// InputRequests are the questions of an input_required task, by key,
	// that no tasks/update has answered yet.
	InputRequests InputRequests `json:"inputRequests,omitzero"`
}

// CreateTaskResult answers a request that became a task (from tools/call
// in 2026-07-28): resultType "task" and the task, with nothing inlined and
// no requestState.
type CreateTaskResult struct {
	// Envelope holds resultType ("task") and _meta.
	Envelope
	// Task is the task created.
	Task
}

// GetTaskResult answers tasks/get: the task as it is now, with what its
// status carries.
type GetTaskResult struct {
	// Envelope holds resultType ("complete") and _meta.
	Envelope
	// DetailedTask is the task.
	DetailedTask
}

// UpdateTaskResult acknowledges tasks/update; it carries nothing but its
// envelope. The answers to questions no longer pending are ignored.
type UpdateTaskResult struct {
	// Envelope holds resultType ("complete") and _meta.
	Envelope
}

// CancelTaskResult acknowledges tasks/cancel, for a task that had ended
// already too; it carries nothing but its envelope.
type CancelTaskResult struct {
	// Envelope holds resultType ("complete") and _meta.
	Envelope
}

// TaskRequestParams are the params of tasks/get and tasks/cancel.
type TaskRequestParams struct {
	// Meta carries the per-request metadata, which must declare the
	// extension; required.
	Meta RequestMeta `json:"_meta"`
	// TaskID is the task's id; required.
	TaskID string `json:"taskId"`
}

// UpdateTaskRequestParams are the params of tasks/update.
type UpdateTaskRequestParams struct {
	// Meta carries the per-request metadata, which must declare the
	// extension; required.
	Meta RequestMeta `json:"_meta"`
	// TaskID is the task's id; required.
	TaskID string `json:"taskId"`
	// InputResponses answer the task's input requests, under their keys.
	InputResponses InputResponses `json:"inputResponses,omitzero"`
}

// TaskStatusNotificationParams are the params of notifications/tasks: the
// task as tasks/get would answer it, without resultType.
type TaskStatusNotificationParams struct {
	// Meta carries the subscription id of the stream.
	Meta *NotificationMeta `json:"_meta,omitempty"`
	// DetailedTask is the task.
	DetailedTask
}
