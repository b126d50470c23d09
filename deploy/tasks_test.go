//go:build deploy

package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// tasksExtension is the tasks extension's identifier (SEP-2663).
const tasksExtension = "io.modelcontextprotocol/tasks"

// taskReport is what the tasks subtests saw, for the summary table.
type taskReport struct {
	polled   string // the polling subtest's line
	answered string // the input subtest's line
}

// taskWire is a CreateTaskResult or a tasks/get result, decoded loosely.
type taskWire struct {
	ResultType    string                     `json:"resultType"`
	TaskID        string                     `json:"taskId"`
	Status        string                     `json:"status"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	Result        *struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"result"`
}

// text is a completed task's first text content.
func (w *taskWire) text() string {
	if w.Result == nil || len(w.Result.Content) == 0 {
		return ""
	}
	return w.Result.Content[0].Text
}

// taskCall sends one 2026-07-28 request whose _meta declares the tasks
// extension, with the Mcp-Name a task method carries (its taskId).
func (c *client) taskCall(ctx context.Context, id any, method string, params map[string]any) (*taskWire, error) {
	meta := modernMeta()
	meta["io.modelcontextprotocol/clientCapabilities"] = map[string]any{
		"elicitation": map[string]any{}, "extensions": map[string]any{tasksExtension: map[string]any{}}}
	params["_meta"] = meta
	name, _ := params["name"].(string)
	if taskID, ok := params["taskId"].(string); ok {
		name = taskID
	}
	a, err := c.post(ctx, modernVersion, "", method, name, request(id, method, params), nil)
	if err != nil {
		return nil, err
	}
	w := new(taskWire)
	if err := a.result(w); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	return w, nil
}

// pollTask gets task id at each instance in turn until it is want, and
// returns it with the number of polls.
func pollTask(t *testing.T, ctx context.Context, id, want string, at ...*instance) (*taskWire, int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for i := 0; ; i++ {
		in := at[i%len(at)]
		w, err := newClient(in.URL(), 1).taskCall(ctx, fmt.Sprint("get-", i), "tasks/get", map[string]any{"taskId": id})
		if err != nil {
			t.Fatalf("tasks/get at %s: %v", in.Name, err)
		}
		switch {
		case w.Status == want:
			return w, i + 1
		case w.Status != "working" && w.Status != "input_required":
			t.Fatalf("task %s at %s is %s, waiting for %s: %+v", id, in.Name, w.Status, want, w)
		case time.Now().After(deadline):
			t.Fatalf("task %s is still %s, not %s, after 20s", id, w.Status, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// tasksAcross: a task created at i1 is polled at i2 and i3 until it
// completes (every instance shares the Redis task store), and a task
// created at i1 and cancelled at i3 is seen cancelled at i2.
func tasksAcross(t *testing.T, ctx context.Context, d *deployment, rep *taskReport) {
	i1, i2, i3 := d.instances[0], d.instances[1], d.instances[2]
	start := time.Now()
	created, err := newClient(i1.URL(), 1).taskCall(ctx, 1, "tools/call",
		map[string]any{"name": "slow_compute", "arguments": map[string]any{"seconds": 1, "label": "across"}})
	if err != nil || created.ResultType != "task" || created.Status != "working" || created.TaskID == "" {
		t.Fatalf("slow_compute at %s: %v %+v", i1.Name, err, created)
	}
	done, polls := pollTask(t, ctx, created.TaskID, "completed", i2, i3)
	if !strings.Contains(done.text(), "Computed across") {
		t.Fatalf("completed task: %+v", done)
	}
	rep.polled = fmt.Sprintf("created at %s, completed after %v, %d polls alternating %s and %s", i1.Name,
		time.Since(start).Round(time.Millisecond), polls, i2.Name, i3.Name)
	t.Logf("tasks: %s: %q", rep.polled, done.text())

	long, err := newClient(i1.URL(), 1).taskCall(ctx, 2, "tools/call",
		map[string]any{"name": "slow_compute", "arguments": map[string]any{"seconds": 5, "label": "cancelled"}})
	if err != nil || long.ResultType != "task" {
		t.Fatalf("slow_compute at %s: %v %+v", i1.Name, err, long)
	}
	if _, err := newClient(i3.URL(), 1).taskCall(ctx, 3, "tasks/cancel", map[string]any{"taskId": long.TaskID}); err != nil {
		t.Fatalf("tasks/cancel at %s: %v", i3.Name, err)
	}
	got, err := newClient(i2.URL(), 1).taskCall(ctx, 4, "tasks/get", map[string]any{"taskId": long.TaskID})
	if err != nil || got.Status != "cancelled" {
		t.Fatalf("tasks/get at %s after the cancel at %s: %v %+v", i2.Name, i3.Name, err, got)
	}
	rep.polled += fmt.Sprintf("; cancelled at %s, seen cancelled at %s", i3.Name, i2.Name)
}

// taskInputAcross: a task created at i1 waits on its user; i2 sees the
// question, i3 answers it with tasks/update, and i1 sees it completed.
func taskInputAcross(t *testing.T, ctx context.Context, d *deployment, rep *taskReport) {
	i1, i2, i3 := d.instances[0], d.instances[1], d.instances[2]
	created, err := newClient(i1.URL(), 1).taskCall(ctx, 1, "tools/call",
		map[string]any{"name": "confirm_delete", "arguments": map[string]any{"filename": "report.txt"}})
	if err != nil || created.ResultType != "task" || created.TaskID == "" {
		t.Fatalf("confirm_delete at %s: %v %+v", i1.Name, err, created)
	}
	waiting, _ := pollTask(t, ctx, created.TaskID, "input_required", i2)
	if waiting.InputRequests["confirm"] == nil {
		t.Fatalf("input_required at %s without the confirm question: %+v", i2.Name, waiting)
	}
	ack, err := newClient(i3.URL(), 1).taskCall(ctx, 2, "tasks/update", map[string]any{"taskId": created.TaskID,
		"inputResponses": map[string]any{"confirm": map[string]any{"action": "accept", "content": map[string]any{"confirm": true}}}})
	if err != nil || ack.ResultType != "complete" {
		t.Fatalf("tasks/update at %s: %v %+v", i3.Name, err, ack)
	}
	done, _ := pollTask(t, ctx, created.TaskID, "completed", i1)
	if done.text() != "Deleted report.txt" {
		t.Fatalf("completed task: %+v", done)
	}
	rep.answered = fmt.Sprintf("created at %s, input_required seen at %s, answered at %s, completed seen at %s",
		i1.Name, i2.Name, i3.Name, i1.Name)
	t.Logf("tasks input: %s: %q", rep.answered, done.text())
}
