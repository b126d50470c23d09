package main

import (
	"regexp"
	"time"
)

// The task step: slow_compute works for taskSeconds, longer than the
// server's grace for answering at once, so the call becomes a task; the
// first poll, pollIntervalMs later, finds it completed.
const (
	taskTool    = "slow_compute"
	taskSeconds = "0.2"
	taskGreets  = "Computed demo in 0.2s"
	// taskPolls bounds the polls of a slow machine.
	taskPolls = 20
	// taskShown is how much of a task line is printed: the completed
	// task's, with its inlined result, whole.
	taskShown = 720
)

// modernMetaTasks is modernMeta for a client that declares the tasks
// extension.
const modernMetaTasks = `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + modernVersion + `",` +
	`"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}},` +
	`"io.modelcontextprotocol/clientInfo":{"name":"mcpwire-demo","version":"1.0.0"}}`

// taskWire is the task of a CreateTaskResult or a tasks/get result.
type taskWire struct {
	ResultType     string     `json:"resultType"`
	TaskID         string     `json:"taskId"`
	Status         string     `json:"status"`
	PollIntervalMs int        `json:"pollIntervalMs"`
	Result         toolResult `json:"result"`
}

// taskPolled calls a task-supporting tool with the extension declared: the
// answer is a CreateTaskResult (resultType "task"), and tasks/get, after
// the pollIntervalMs it suggests, inlines the tool's result once the task
// is completed.
func (s *session) taskPolled() {
	s.mask = maskTask
	s.limit = taskShown
	defer func() { s.mask, s.limit = nil, maxShown }()
	s.pollTask()
}

// pollTask is taskPolled's exchange.
func (s *session) pollTask() {
	m, ok := s.response(s.request("tools/call", `{"name":"`+taskTool+`","arguments":{"seconds":`+taskSeconds+`,"label":"demo"},`+modernMetaTasks+`}`))
	var t taskWire
	if !ok || !s.result(m, &t) || !s.check(t.ResultType == "task" && t.TaskID != "", "the call answered resultType %q, not a task", t.ResultType) {
		return
	}
	wait := time.Duration(max(t.PollIntervalMs, 50)) * time.Millisecond
	for range taskPolls {
		time.Sleep(wait)
		m, ok = s.response(s.request("tasks/get", `{"taskId":`+jsonString(t.TaskID)+`,`+modernMetaTasks+`}`))
		if !ok || !s.result(m, &t) || t.Status != "working" {
			break
		}
	}
	s.check(t.Status == "completed" && t.Result.text() == taskGreets, "the task is %s with %q, want completed with %q", t.Status, t.Result.text(), taskGreets)
}

// Values of a task line that are random per run: the task id and its
// timestamps.
var (
	taskIDValue   = regexp.MustCompile(`"taskId":"[^"]*"`)
	taskTimeValue = regexp.MustCompile(`"(createdAt|lastUpdatedAt)":"[^"]*"`)
)

// Placeholders printed in place of the values random per run.
const (
	randomShown = "(random)"
	timeShown   = "(time)"
)

// maskTask is a task line with its task id and timestamps replaced by
// placeholders (they are random per run); the rest is as sent.
func maskTask(line []byte) []byte {
	line = taskIDValue.ReplaceAll(line, []byte(`"taskId":"`+randomShown+`"`))
	return taskTimeValue.ReplaceAll(line, []byte(`"$1":"`+timeShown+`"`))
}
