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

const isoMillis = "2006-01-02T15:04:05.000Z07:00"

// wireTask is t on the wire (protocol.DetailedTask in its envelope): the
// members every task message carries and, with detailed, what its status
// inlines, as tasks/get answers it. Without detailed it is the task of a
// CreateTaskResult, once the caller sets resultType "task"; a task never
// carries requestState (tasks-request-state-removal).
//
// The record keeps the inlined members as JSON (task.Task); they are
// decoded into their protocol types here, which encode them back to the
// same bytes. This server wrote them: the error from a *jsonrpc.Error, each
// input request from the method and the params package ask encoded from
// protocol types, so they decode. Should a record hold one that does not
// (a record damaged in its store), the error is replaced by a -32603 one
// and the input request is left out, rather than the task becoming
// unreadable.
func wireTask(t *task.Task, detailed bool) *protocol.GetTaskResult {
	w := &protocol.GetTaskResult{DetailedTask: protocol.DetailedTask{Task: protocol.Task{
		TaskID: t.ID, Status: t.Status, StatusMessage: t.StatusMessage,
		CreatedAt: t.CreatedAt.UTC().Format(isoMillis), LastUpdatedAt: t.UpdatedAt.UTC().Format(isoMillis),
	}}}
	if t.TTL > 0 {
		w.TTLMs = protocol.TTL(t.TTL)
	}
	if ms := t.PollInterval.Milliseconds(); ms > 0 {
		w.PollIntervalMs = &ms
	}
	if !detailed {
		return w
	}
	switch t.Status {
	case task.Completed:
		w.Result = t.Result
	case task.Failed:
		if len(t.Error) > 0 {
			w.Error = new(jsonrpc.Error)
			if json.Unmarshal(t.Error, w.Error) != nil {
				w.Error = jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: the task's error could not be read")
			}
		}
	case task.InputRequired:
		for key, raw := range t.InputRequests {
			var req protocol.InputRequest
			if json.Unmarshal(raw, &req) != nil {
				continue
			}
			if w.InputRequests == nil {
				w.InputRequests = make(protocol.InputRequests, len(t.InputRequests))
			}
			w.InputRequests[key] = req
		}
	}
	return w
}

// findTask checks the request and returns its task: -32021 without the
// extension, -32602 for a missing or unknown id (another caller's task is
// unknown to this one).
func (s *Server) findTask(ctx context.Context, r *request, id string) (*task.Task, error) {
	if !declaresTasks(r) {
		return nil, missingTasks(r.method)
	}
	if id == "" {
		return nil, invalidParams(`%s needs "taskId", a string`, r.method)
	}
	t, err := s.tasks.store.Get(ctx, id)
	if err == nil && t.Owner != subjectOf(r) {
		err = task.ErrNotFound
	}
	if err != nil {
		return nil, s.taskError(id, err)
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

func handleTasksGet(ctx context.Context, ss *session, _ *call, r *request, p *protocol.TaskRequestParams) (any, error) {
	t, err := ss.srv.findTask(ctx, r, p.TaskID)
	if err != nil {
		return nil, err
	}
	return wireTask(t, true), nil
}

func handleTasksCancel(ctx context.Context, ss *session, _ *call, r *request, p *protocol.TaskRequestParams) (any, error) {
	t, err := ss.srv.findTask(ctx, r, p.TaskID)
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
	return &protocol.CancelTaskResult{}, nil
}

func handleTasksUpdate(ctx context.Context, ss *session, c *call, r *request, p *protocol.UpdateTaskRequestParams) (any, error) {
	t, err := ss.srv.findTask(ctx, r, p.TaskID)
	if err != nil {
		return nil, err
	}
	// inputResponses is read raw, answer by answer (the typed decoding
	// leaves p.InputResponses out: an answer to a key not asked, of any
	// shape, is ignored rather than refused).
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
		done := ss.srv.tasks.resume(ctx, ss, c, r, stored)
		if g := ss.srv.opts.TaskGrace; g > 0 {
			t := time.NewTimer(g)
			select {
			case <-done:
			case <-t.C:
			}
			t.Stop()
		}
	}
	return &protocol.UpdateTaskResult{}, nil
}
