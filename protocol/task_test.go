package protocol

import (
	"testing"

	"github.com/mcpwire/mcpwire/internal/testsupport/wiremsg"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/task"
)

// taskMembers are the members every task message below carries.
const taskMembers = `"taskId":"dGFzay1vbmU","createdAt":"2026-07-28T10:00:00.000Z","lastUpdatedAt":"2026-07-28T10:00:01.250Z"`

// TestTaskRoundTrips decodes the tasks extension's messages into their
// types, rejecting unknown members, and encodes them back unchanged: every
// status, what each inlines, and the members whose presence matters
// (ttlMs null, pollIntervalMs 0, an empty inputResponses).
func TestTaskRoundTrips(t *testing.T) {
	const meta = `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}`
	const reqMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	tests := []struct {
		name string
		v    any
		in   string
	}{
		{"created working", new(CreateTaskResult),
			`{"resultType":"task",` + meta + `,` + taskMembers + `,"status":"working","ttlMs":3600000,"pollIntervalMs":500}`},
		{"created without TTL", new(CreateTaskResult),
			`{"resultType":"task",` + taskMembers + `,"status":"working","ttlMs":null}`},
		{"created failed", new(CreateTaskResult),
			`{"resultType":"task",` + taskMembers + `,"status":"failed","statusMessage":"boom","ttlMs":1000,"pollIntervalMs":0}`},
		{"get working", new(GetTaskResult),
			`{"resultType":"complete",` + meta + `,` + taskMembers + `,"status":"working","ttlMs":1000,"pollIntervalMs":500}`},
		{"get completed", new(GetTaskResult),
			`{"resultType":"complete",` + taskMembers + `,"status":"completed","ttlMs":1000,` +
				`"result":{"resultType":"complete","content":[{"type":"text","text":"done"}],"isError":false,` + meta + `}}`},
		{"get failed", new(GetTaskResult),
			`{"resultType":"complete",` + taskMembers + `,"status":"failed","statusMessage":"internal error","ttlMs":1000,` +
				`"error":{"code":-32021,"message":"missing","data":{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}`},
		{"get input required", new(GetTaskResult),
			`{"resultType":"complete",` + taskMembers + `,"status":"input_required","ttlMs":1000,"inputRequests":{` +
				`"confirm":{"method":"elicitation/create","params":{"message":"Sure?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}}},` +
				`"where":{"method":"roots/list","params":{}}}}`},
		{"get cancelled", new(GetTaskResult),
			`{"resultType":"complete",` + taskMembers + `,"status":"cancelled","statusMessage":"cancelled by the client","ttlMs":null}`},
		{"update ack", new(UpdateTaskResult), `{"resultType":"complete",` + meta + `}`},
		{"cancel ack", new(CancelTaskResult), `{"resultType":"complete"}`},
		{"get params", new(TaskRequestParams), `{` + reqMeta + `,"taskId":"dGFzay1vbmU"}`},
		{"update params", new(UpdateTaskRequestParams),
			`{` + reqMeta + `,"taskId":"dGFzay1vbmU","inputResponses":{"confirm":{"action":"accept","content":{"ok":true}},"where":{"roots":[]}}}`},
		{"update params, no answers", new(UpdateTaskRequestParams), `{` + reqMeta + `,"taskId":"t","inputResponses":{}}`},
		{"get request", request[TaskRequestParams](MethodGetTask)(), `{"jsonrpc":"2.0","id":5,"method":"tasks/get","params":{` + reqMeta + `,"taskId":"t"}}`},
		{"update request", request[UpdateTaskRequestParams](MethodUpdateTask)(),
			`{"jsonrpc":"2.0","id":"u","method":"tasks/update","params":{` + reqMeta + `,"taskId":"t","inputResponses":{"k":{"action":"decline"}}}}`},
		{"cancel request", request[TaskRequestParams](MethodCancelTask)(), `{"jsonrpc":"2.0","id":6,"method":"tasks/cancel","params":{` + reqMeta + `,"taskId":"t"}}`},
		{"notification working", notification[TaskStatusNotificationParams](NotificationTaskStatus)(),
			`{"jsonrpc":"2.0","method":"notifications/tasks","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":3},` + taskMembers + `,"status":"working","ttlMs":1000,"pollIntervalMs":500}}`},
		{"notification completed", notification[TaskStatusNotificationParams](NotificationTaskStatus)(),
			`{"jsonrpc":"2.0","method":"notifications/tasks","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"s"},` + taskMembers +
				`,"status":"completed","ttlMs":1000,"result":{"resultType":"complete","content":[]}}}`},
		{"get response", new(wiremsg.Result[GetTaskResult]),
			`{"jsonrpc":"2.0","id":5,"result":{"resultType":"complete",` + taskMembers + `,"status":"working","ttlMs":1000}}`},
		{"create response", new(wiremsg.Result[CreateTaskResult]),
			`{"jsonrpc":"2.0","id":4,"result":{"resultType":"task",` + taskMembers + `,"status":"working","ttlMs":1000}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { roundTrip(t, []byte(tt.in), tt.v) })
	}
}

// TestTaskEncoding pins what a server writes: the members in the
// extension's order, ttlMs null when there is no TTL, pollIntervalMs and
// the inlined members left out when unset.
func TestTaskEncoding(t *testing.T) {
	task1 := Task{TaskID: "t1", Status: task.Working, CreatedAt: "c", LastUpdatedAt: "u"}
	hour := int64(3600000)
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"no TTL", CreateTaskResult{Envelope: Envelope{ResultType: ResultTypeTask}, Task: task1},
			`{"resultType":"task","taskId":"t1","status":"working","createdAt":"c","lastUpdatedAt":"u","ttlMs":null}`},
		{"TTL and poll interval", GetTaskResult{Envelope: Envelope{ResultType: ResultTypeComplete},
			DetailedTask: DetailedTask{Task: Task{TaskID: "t1", Status: task.Cancelled, StatusMessage: "m", CreatedAt: "c", LastUpdatedAt: "u",
				TTLMs: &hour, PollIntervalMs: ptr(int64(250))}}},
			`{"resultType":"complete","taskId":"t1","status":"cancelled","statusMessage":"m","createdAt":"c","lastUpdatedAt":"u","ttlMs":3600000,"pollIntervalMs":250}`},
		{"failed", GetTaskResult{DetailedTask: DetailedTask{Task: Task{TaskID: "t1", Status: task.Failed, CreatedAt: "c", LastUpdatedAt: "u"},
			Error: jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error")}},
			`{"taskId":"t1","status":"failed","createdAt":"c","lastUpdatedAt":"u","ttlMs":null,"error":{"code":-32603,"message":"internal error"}}`},
		{"notification", wiremsg.Notification[TaskStatusNotificationParams]{Method: NotificationTaskStatus, Params: TaskStatusNotificationParams{
			Meta: &NotificationMeta{SubscriptionID: jsonrpc.Int64ID(9)}, DetailedTask: DetailedTask{Task: task1}}},
			`{"jsonrpc":"2.0","method":"notifications/tasks","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":9},"taskId":"t1","status":"working","createdAt":"c","lastUpdatedAt":"u","ttlMs":null}}`},
		{"cancel request", wiremsg.Request[TaskRequestParams]{ID: jsonrpc.Int64ID(2), Method: MethodCancelTask, Params: TaskRequestParams{
			Meta: RequestMeta{ProtocolVersion: Version}, TaskID: "t1"}},
			`{"jsonrpc":"2.0","id":2,"method":"tasks/cancel","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"taskId":"t1"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { encodeCase(t, tt.v, tt.want, "") })
	}
	encodeCase(t, wiremsg.Request[TaskRequestParams]{Method: MethodGetTask, Params: TaskRequestParams{TaskID: "t1"}}, "", "has no id")
}

// TestTaskDecodeRefuses shows the checks decoding does make: the method of
// a request or notification, and the variant of an inlined input request.
func TestTaskDecodeRefuses(t *testing.T) {
	decodeFails(t, `{"jsonrpc":"2.0","id":1,"method":"tasks/cancel","params":{"_meta":{},"taskId":"t"}}`, request[TaskRequestParams](MethodGetTask)(), `method is "tasks/cancel"`)
	decodeFails(t, `{"jsonrpc":"2.0","method":"tasks/update","params":{"_meta":{},"taskId":"t"}}`, request[UpdateTaskRequestParams](MethodUpdateTask)(), "has no id")
	decodeFails(t, `{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"t"}}`, notification[TaskStatusNotificationParams](NotificationTaskStatus)(), `method is "notifications/tasks/status"`)
	decodeFails(t, `{"taskId":"t","status":"input_required","inputRequests":{"k":{"method":"ping","params":{}}}}`, new(GetTaskResult), `"ping"`)
	decodeFails(t, `{"_meta":{},"taskId":"t","inputResponses":{"k":{"ignored":true}}}`, new(UpdateTaskRequestParams), "exactly one of")
}

// The status values are package task's, under the name the wire gives
// them.
func TestTaskStatusValues(t *testing.T) {
	for s, want := range map[TaskStatus]string{task.Working: "working", task.InputRequired: "input_required",
		task.Completed: "completed", task.Failed: "failed", task.Cancelled: "cancelled"} {
		if string(s) != want {
			t.Errorf("status %q, want %q", s, want)
		}
	}
}
