package mcp

import (
	"context"
	"errors"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/fanout"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/task"
)

// Task status notifications (optional in the extension; the draft's "Task
// Status Notifications"): a subscriptions/listen request asks for them
// with notifications.taskIds, the ids of tasks it wants to follow, and the
// acknowledgement's taskIds are those honoured: the ids of tasks that
// exist and belong to the caller (another caller's task, an expired one
// and an id never issued are left out alike, so a stream learns nothing of
// tasks it may not see), at most listenMaxTaskIDs of them. Asking for
// taskIds without declaring the extension in the request's _meta is -32021
// when the server has task tools (a server without them ignores the
// field, as any it does not know).
//
// Each honoured task's stream then gets notifications/tasks, whose params
// are the task as tasks/get would answer it at that moment (inlined result,
// error or inputRequests, without resultType) with the stream's
// subscriptionId in _meta: once right after the acknowledgement, with the
// task's state then (so that a change between the tools/call and the
// listen is not missed), and on every change of its state after that
// (working, input_required, back to working after tasks/update answered
// the last question, a partial answer, and the terminal status). A stream
// never gets a state older than one it was sent, nor the same one twice.
// Across instances, the change travels through Options.Broker as a
// fanout.TaskStatus event naming the task; the instance holding the stream
// reads the task from the shared Options.TaskStore, so a state superseded
// before it was delivered there is skipped for the newer one.

// listenMaxTaskIDs bounds the taskIds one listen stream follows; the rest
// are not honoured.
const listenMaxTaskIDs = 64

// taskSeen is the state of a task last sent on a stream.
type taskSeen struct {
	updated int64 // UpdatedAt, in nanoseconds
	status  task.Status
	pending int // how many input requests it listed
}

func seen(t *task.Task) taskSeen {
	return taskSeen{t.UpdatedAt.UnixNano(), t.Status, len(t.InputRequests)}
}

// supersededBy reports whether t is newer than what was sent.
func (last taskSeen) supersededBy(t *task.Task) bool {
	now := seen(t)
	if now.updated != last.updated {
		return now.updated > last.updated
	}
	return now != last
}

// listenTasks returns the taskIds of a listen request that it may follow.
func (s *Server) listenTasks(ctx context.Context, r *request) ([]string, error) {
	obj, err := jsonx.ParseObject(r.params.Get("notifications"))
	if err != nil {
		return nil, nil // the typed decoding reported a filter that is not an object
	}
	raw := obj.Get("taskIds")
	if raw == nil || string(raw) == "null" {
		return nil, nil
	}
	var ids []string
	if err := json.Unmarshal(raw, &ids); err != nil {
		return nil, invalidParams(`"notifications.taskIds" must be an array of strings`)
	}
	if len(ids) == 0 || !s.hasTaskTools() {
		return nil, nil
	}
	if !declaresTasks(r) {
		return nil, missingTasks(`subscriptions/listen with "taskIds"`)
	}
	owner := subjectOf(r)
	var honoured []string
	has := map[string]bool{}
	for _, id := range ids {
		if len(honoured) == listenMaxTaskIDs {
			break
		}
		if id == "" || has[id] {
			continue
		}
		t, err := s.tasks.store.Get(ctx, id)
		switch {
		case err == nil && t.Owner == owner:
			has[id] = true
			honoured = append(honoured, id)
		case err != nil && !errors.Is(err, task.ErrNotFound):
			return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: reading task %s: %v", id, err)
		}
	}
	return honoured, nil
}

// tellTasksNow sends a new stream the current state of the tasks it
// follows. It reads them after the stream is registered, so that a change
// made meanwhile is either in what it reads or sent after it (the older of
// the two is skipped).
func (ss *session) tellTasksNow(ctx context.Context, sub *subscription, ids []string) {
	for _, id := range ids {
		t, err := ss.srv.tasks.store.Get(ctx, id)
		if err != nil {
			continue // expired meanwhile: nothing more will come for it
		}
		ss.subsMu.Lock()
		sub.tellTask(t)
		ss.subsMu.Unlock()
	}
}

// taskChanged tells the listen streams that follow t of its new state: this
// server's at once, with t as stored, and, with a Broker, the other
// instances' (which read t from the store they share with this one).
func (s *Server) taskChanged(t *task.Task) {
	s.eachSession(func(ss *session) { ss.taskChanged(t) })
	if s.relay != nil {
		s.relay.publish(fanout.Event{Kind: fanout.TaskStatus, TaskID: t.ID, Status: string(t.Status)})
	}
}

// deliverTask tells this server's streams that follow task id of its
// state, read from the store, after another instance changed it, and
// stops the task's handler when it runs here and the change was a cancel.
func (s *Server) deliverTask(id string) {
	here := s.tasks.runsHere(id)
	if !here && !s.followsTask(id) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), relayPublishTimeout)
	defer cancel()
	t, err := s.tasks.store.Get(ctx, id)
	if err != nil {
		if !errors.Is(err, task.ErrNotFound) {
			s.log.Debug("mcp: reading a task another instance changed", "task", id, "err", err)
		}
		return
	}
	if here && t.Status == task.Cancelled {
		// tasks/cancel reached another instance: stop the handler here.
		s.tasks.cancelLocal(id, errCancelledElsewhere)
	}
	s.eachSession(func(ss *session) { ss.taskChanged(t) })
}

// errCancelledElsewhere ends the handler of a task the client cancelled
// through another instance of the deployment.
var errCancelledElsewhere = errors.New("task cancelled by the client (through another instance)")

// followsTask reports whether a stream of this server follows task id.
func (s *Server) followsTask(id string) bool {
	found := false
	s.eachSession(func(ss *session) {
		ss.subsMu.Lock()
		defer ss.subsMu.Unlock()
		for _, sub := range ss.subs {
			found = found || sub.tasks[id]
		}
	})
	return found
}

// taskChanged sends t to this connection's streams that follow it.
func (ss *session) taskChanged(t *task.Task) {
	ss.subsMu.Lock()
	defer ss.subsMu.Unlock()
	for _, sub := range ss.subs {
		sub.tellTask(t)
	}
}

// tellTask sends t on the stream when it follows t, t is its caller's, and
// t is newer than what it was last sent of t. The session's subsMu is held.
func (sub *subscription) tellTask(t *task.Task) {
	if !sub.tasks[t.ID] || t.Owner != sub.owner {
		return
	}
	if last, ok := sub.told[t.ID]; ok && !last.supersededBy(t) {
		return
	}
	sub.told[t.ID] = seen(t)
	sub.call.notify(&jsonrpc.Notification{Method: protocol.NotificationTaskStatus, Params: taskNotice(t, sub.call.id)})
}

// taskNotice is the params of notifications/tasks: the task as tasks/get
// answers it, without resultType, with the subscription id in _meta.
func taskNotice(t *task.Task, id jsonrpc.ID) json.RawMessage {
	b, _ := json.Marshal(protocol.TaskStatusNotificationParams{
		Meta: subscriptionMeta(id), DetailedTask: wireTask(t, true).DetailedTask,
	}) // plain data: it always encodes
	return b
}
