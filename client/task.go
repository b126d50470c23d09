package client

import (
	"context"
	"errors"
	"fmt"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/task"
)

// tasksExtension identifies the tasks extension of 2026-07-28.
const tasksExtension = "io.modelcontextprotocol/tasks"

// Bounds of following a task.
const (
	defaultPoll   = 250 * time.Millisecond // tasks/get interval without the server's pollIntervalMs
	minPoll       = 10 * time.Millisecond  // the shortest interval followed
	maxPoll       = 5 * time.Second        // the longest interval followed
	cancelTimeout = 5 * time.Second        // bounds tasks/cancel once the caller gave up
)

// errTaskCancelled: the server reports the task cancelled.
var errTaskCancelled = errors.New("client: the server cancelled the task")

// followTask follows the task a tools/call created until it ends, and
// returns its result as the server wrote it. It polls with tasks/get (at
// the server's pollIntervalMs), answers an input_required task's
// questions with tasks/update, and, when ctx ends first, sends
// tasks/cancel.
func (c *Client) followTask(ctx context.Context, created json.RawMessage) (json.RawMessage, error) {
	var t protocol.CreateTaskResult
	if err := json.Unmarshal(created, &t); err != nil || t.TaskID == "" {
		return nil, fmt.Errorf("client: a task result without a task: %s", clip.Bytes(created))
	}
	id := t.TaskID
	c.taskChanged(ctx, t.Task)
	rounds := 0
	wait := poll(t.PollIntervalMs)
	for {
		var got protocol.GetTaskResult
		if err := c.request(ctx, protocol.MethodGetTask, map[string]string{"taskId": id}, &got); err != nil {
			return nil, c.giveUp(ctx, id, err)
		}
		c.taskChanged(ctx, got.Task)
		if got.PollIntervalMs != nil {
			wait = poll(got.PollIntervalMs)
		}
		switch got.Status {
		case task.Completed:
			if len(got.Result) == 0 {
				return nil, errors.New("client: a completed task without a result")
			}
			return got.Result, nil
		case task.Failed:
			if got.Error != nil {
				return nil, got.Error
			}
			return nil, fmt.Errorf("client: the task failed: %s", clip.String(got.StatusMessage))
		case task.Cancelled:
			return nil, errTaskCancelled
		case task.InputRequired:
			rounds++
			if max := c.maxRounds(); rounds > max {
				return nil, c.giveUp(ctx, id, fmt.Errorf("client: the task was still input_required after %d rounds", max))
			}
			reqs, err := json.Marshal(got.InputRequests)
			if err != nil {
				return nil, err
			}
			answers, err := c.sess().Answer(ctx, reqs)
			if err != nil {
				return nil, c.giveUp(ctx, id, err)
			}
			params := map[string]any{"taskId": id, "inputResponses": answers}
			if err := c.request(ctx, protocol.MethodUpdateTask, params, nil); err != nil {
				return nil, c.giveUp(ctx, id, err)
			}
			continue
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, c.giveUp(ctx, id, ctx.Err())
		}
	}
}

// giveUp sends tasks/cancel when ctx ended, and returns err.
func (c *Client) giveUp(ctx context.Context, id string, err error) error {
	if ctx.Err() == nil {
		return err
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cancelTimeout)
	defer cancel()
	c.request(cctx, protocol.MethodCancelTask, map[string]string{"taskId": id}, nil)
	return err
}

// onTaskKey keys the callback of WithOnTask in a context.
type onTaskKey struct{}

// WithOnTask returns a context whose tool calls tell f of each state of
// the task the server makes of them, as CallTool learns it, besides
// Options.OnTask: what a proxy needs to tell its own caller that the call
// became a task. f runs on the goroutine of CallTool and must not block.
func WithOnTask(ctx context.Context, f func(protocol.Task)) context.Context {
	return context.WithValue(ctx, onTaskKey{}, f)
}

// taskChanged tells Options.OnTask, and the callback of WithOnTask in
// ctx, of the task's state.
func (c *Client) taskChanged(ctx context.Context, t protocol.Task) {
	if f := c.opts.OnTask; f != nil {
		f(t)
	}
	if f, _ := ctx.Value(onTaskKey{}).(func(protocol.Task)); f != nil {
		f(t)
	}
}

// maxRounds is the bound on a task's input_required rounds.
func (c *Client) maxRounds() int {
	if c.opts.MaxInputRounds > 0 {
		return c.opts.MaxInputRounds
	}
	return 16
}

// poll returns the interval to poll at for the server's pollIntervalMs.
func poll(ms *int64) time.Duration {
	if ms == nil {
		return defaultPoll
	}
	return min(max(time.Duration(*ms)*time.Millisecond, minPoll), maxPoll)
}

// isTask reports whether a tools/call result created a task.
func isTask(raw json.RawMessage) bool {
	var r struct {
		ResultType protocol.ResultType `json:"resultType"`
	}
	return json.Unmarshal(raw, &r) == nil && r.ResultType == protocol.ResultTypeTask
}
