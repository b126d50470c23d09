package mcp

import (
	"context"
	"errors"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/task"
)

// resultTypeTask is the resultType of a CreateTaskResult.
const resultTypeTask protocol.ResultType = "task"

// taskWire is a task on the wire: CreateTaskResult (with resultType
// "task" and nothing inlined) and the DetailedTask of tasks/get. It never
// carries requestState (tasks-request-state-removal).
type taskWire struct {
	protocol.Envelope
	TaskID         string                     `json:"taskId"`
	Status         task.Status                `json:"status"`
	StatusMessage  string                     `json:"statusMessage,omitempty"`
	CreatedAt      string                     `json:"createdAt"`
	LastUpdatedAt  string                     `json:"lastUpdatedAt"`
	TTLMs          *int64                     `json:"ttlMs"`
	PollIntervalMs int64                      `json:"pollIntervalMs,omitempty"`
	Result         json.RawMessage            `json:"result,omitempty"`
	Error          json.RawMessage            `json:"error,omitempty"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests,omitempty"`
}

// taskAck is the empty {resultType:"complete"} of tasks/update and
// tasks/cancel.
type taskAck struct{ protocol.Envelope }

const isoMillis = "2006-01-02T15:04:05.000Z07:00"

// wireTask is t on the wire; detailed inlines what its status carries.
func wireTask(t *task.Task, detailed bool) *taskWire {
	w := &taskWire{TaskID: t.ID, Status: t.Status, StatusMessage: t.StatusMessage,
		CreatedAt: t.CreatedAt.UTC().Format(isoMillis), LastUpdatedAt: t.UpdatedAt.UTC().Format(isoMillis)}
	if t.TTL > 0 {
		ms := t.TTL.Milliseconds()
		w.TTLMs = &ms
	}
	if ms := t.PollInterval.Milliseconds(); ms > 0 {
		w.PollIntervalMs = ms
	}
	if detailed {
		switch t.Status {
		case task.Completed:
			w.Result = t.Result
		case task.Failed:
			w.Error = t.Error
		case task.InputRequired:
			w.InputRequests = t.InputRequests
		}
	}
	return w
}

// taskParams are the params of tasks/get, tasks/update and tasks/cancel
// (tasks/update's inputResponses is read from the request, raw).
type taskParams struct {
	TaskID *string `json:"taskId"`
}

// findTask checks the request and returns its task: -32021 without the
// extension, -32602 for a missing or unknown id (another caller's task is
// unknown to this one).
func (s *Server) findTask(ctx context.Context, r *request, p *taskParams) (*task.Task, error) {
	if !declaresTasks(r) {
		return nil, missingTasks(r.method)
	}
	if p.TaskID == nil || *p.TaskID == "" {
		return nil, invalidParams(`%s needs "taskId", a string`, r.method)
	}
	t, err := s.tasks.store.Get(ctx, *p.TaskID)
	if err == nil && t.Owner != subjectOf(r) {
		err = task.ErrNotFound
	}
	if err != nil {
		return nil, s.taskError(*p.TaskID, err)
	}
	return t, nil
}

// taskError is what the client gets when the store could not give task
// id: an unknown task, or a store failure (see storeFailure).
func (s *Server) taskError(id string, err error) error {
	if errors.Is(err, task.ErrNotFound) {
		return invalidParams("unknown task %s", clip.Quote(id))
	}
	return s.storeFailure("reading or updating", id, err)
}

// storeFailure logs why the task store failed an operation and returns
// the error the client gets: -32603 without the store's own words, which
// may name its address.
func (s *Server) storeFailure(op, id string, err error) error {
	s.log.Warn("mcp: the task store failed", "op", op, "task", id, "err", err)
	return jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: the task store is unavailable; try again").
		WithData(map[string]string{"reason": "task_store"})
}

func handleTasksGet(ctx context.Context, ss *session, _ *call, r *request, p *taskParams) (any, error) {
	t, err := ss.srv.findTask(ctx, r, p)
	if err != nil {
		return nil, err
	}
	return wireTask(t, true), nil
}

func handleTasksCancel(ctx context.Context, ss *session, _ *call, r *request, p *taskParams) (any, error) {
	t, err := ss.srv.findTask(ctx, r, p)
	if err != nil {
		return nil, err
	}
	stored, err := ss.srv.tasks.store.Update(ctx, t.ID, func(t *task.Task) error {
		if t.Status.Terminal() {
			return errTaskTerminal // idempotent: the same ack
		}
		t.Status, t.StatusMessage = task.Cancelled, "cancelled by the client"
		t.InputRequests = nil
		t.UpdatedAt = time.Now().UTC()
		return nil
	})
	if err != nil && !errors.Is(err, errTaskTerminal) {
		return nil, ss.srv.taskError(t.ID, err)
	}
	if err == nil {
		ss.srv.taskChanged(stored)
	}
	ss.srv.tasks.cancelLocal(t.ID, errors.New("task cancelled by the client"))
	return &taskAck{}, nil
}

func handleTasksUpdate(ctx context.Context, ss *session, _ *call, r *request, p *taskParams) (any, error) {
	t, err := ss.srv.findTask(ctx, r, p)
	if err != nil {
		return nil, err
	}
	// inputResponses is read raw (the typed decoding leaves it out).
	var given jsonx.Object
	if raw := r.params.Get("inputResponses"); raw != nil && string(raw) != "null" {
		if given, err = jsonx.ParseObject(raw); err != nil {
			return nil, invalidParams(`"inputResponses" must be an object`)
		}
	}
	// Answers to the questions pending now are checked before anything
	// is stored; keys not asked are ignored.
	for key, method := range t.Asked {
		if raw := given.Get(key); raw != nil && string(raw) != "null" && t.InputRequests[key] != nil {
			if err := answers(method, raw); err != nil {
				return nil, invalidParams("inputResponses[%s] does not answer %s: %v", clip.Quote(key), method, err)
			}
		}
	}
	var resumed bool
	stored, err := ss.srv.tasks.store.Update(ctx, t.ID, func(t *task.Task) error {
		resumed = false
		if t.Status != task.InputRequired {
			return errTaskTerminal // nothing is asked: ack and ignore
		}
		changed := false
		for key := range t.InputRequests {
			raw := given.Get(key)
			if raw == nil || string(raw) == "null" {
				continue
			}
			if t.Answers == nil {
				t.Answers = map[string]json.RawMessage{}
			}
			t.Answers[key] = append(json.RawMessage(nil), raw...)
			delete(t.InputRequests, key)
			changed = true
		}
		if !changed {
			return errTaskTerminal
		}
		if len(t.InputRequests) == 0 {
			t.Status, t.InputRequests, t.Asked = task.Working, nil, nil
			resumed = true
		}
		t.UpdatedAt = time.Now().UTC()
		return nil
	})
	if err == nil {
		ss.srv.taskChanged(stored) // a partial answer, or back to working
	}
	switch {
	case err != nil && !errors.Is(err, errTaskTerminal):
		return nil, ss.srv.taskError(t.ID, err)
	case err == nil && resumed:
		// A handler that finishes within Options.TaskGrace has its
		// outcome stored before the ack, as a new task's is.
		done := ss.srv.tasks.resume(ctx, ss, r, stored)
		if g := ss.srv.opts.TaskGrace; g > 0 {
			t := time.NewTimer(g)
			select {
			case <-done:
			case <-t.C:
			}
			t.Stop()
		}
	}
	return &taskAck{}, nil
}
