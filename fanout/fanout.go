// Package fanout carries a server's list changes, resource updates and
// task status changes to the other instances of a deployment, and theirs
// to it.
//
// When several identical instances of one MCP server sit behind a load
// balancer, a client's subscriptions/listen stream (or legacy
// resources/subscribe) is held by one instance, while the event it waits
// for (a resource changed, a tool was added) may be raised on another. A
// Broker joins them: every mcp.Server given one (mcp.Options.Broker)
// publishes each event it raises, and delivers the events the other
// instances published to its own connections exactly as its own. Without
// a Broker, the default, events stay within the Server that raised them,
// and nothing touches the network.
//
// Instances are assumed identical deployments: a list change on one means
// the deployment's list changed, so the receiving instance forwards the
// notification as it is (its clients list again, and may reach any
// instance) and does not change its own registries. For the same reason
// a server does not publish the list changes it makes before it serves
// any connection: registration at start-up is the same on every instance,
// and publishing it would make every client of the deployment list again
// whenever an instance starts. A resource update is always published, and
// forwarded to whoever follows the URI on the receiving instance. A task
// status change (the tasks extension) is always published too: it names
// the task, and the receiving instance reads the task from the task store
// the instances share and tells the listen streams that follow it there.
//
// Delivery is at most once and best effort: an event published while the
// broker is unreachable is lost. Brokers count what they lose where they
// can (see package redisbroker's Stats), and clients that reconnect a
// listen stream list again, as the protocol requires of them (no state
// survives a reconnect), which recovers what they missed.
//
// # Wire format
//
// An event travels as one small JSON object (Event.MarshalJSON):
//
//	{"v":1,"kind":"resources/updated","uri":"file:///a.txt","origin":"5f0c2a9e7d41b3c8","seq":42}
//	{"v":1,"kind":"tasks","task":"q3V…","status":"completed","origin":"5f0c2a9e7d41b3c8","seq":43}
//
// v is the format's version, 1; kind is one of "tools/list_changed",
// "prompts/list_changed", "resources/list_changed", "resources/updated"
// and "tasks"; uri is present for "resources/updated" only; task (the task
// id) and status (the status it changed to, for information: the receiver
// reads the task's current state from the store) for "tasks" only; origin
// names the publishing server (random per mcp.Server), and seq numbers that
// server's events from 1 up, so a receiver can tell events it never got by
// the gaps. Fields may be added within version 1 and are ignored by readers
// that do not know them; v changes when a field changes meaning, and a
// reader refuses versions it does not know. Kinds may be added within
// version 1 too: a reader refuses an event of a kind it does not know (an
// error from Event.UnmarshalJSON, which brokers count as malformed) and
// goes on with the next, so during a rolling upgrade an older instance
// drops the events of the newer kinds and nothing else. "tasks" is such a
// kind: instances older than it drop task status changes, whose listen
// streams fall back to polling tasks/get as the extension allows.
package fanout

import (
	"context"
	"errors"
	"fmt"
	"sync"

	json "github.com/goccy/go-json"
)

// Kind is what an event says changed. Its values are the names of the
// notifications it becomes, without "notifications/".
type Kind string

// The kinds of event.
const (
	ToolsListChanged     Kind = "tools/list_changed"
	PromptsListChanged   Kind = "prompts/list_changed"
	ResourcesListChanged Kind = "resources/list_changed"
	ResourceUpdated      Kind = "resources/updated"
	// TaskStatus is a change of a task's state (notifications/tasks, the
	// tasks extension): its status, or the input it waits for.
	TaskStatus Kind = "tasks"
)

// Version is the version of the wire format this package writes and reads.
const Version = 1

// Event is one list change, resource update or task status change raised
// on some instance.
type Event struct {
	Kind Kind
	// URI is the resource that changed (ResourceUpdated only).
	URI string
	// TaskID is the task whose state changed (TaskStatus only).
	TaskID string
	// Status is the status the task changed to (TaskStatus only, may be
	// empty): a hint, since the task may have changed again since.
	Status string
	// Origin names the server that raised the event; a server ignores
	// the events that carry its own origin (it delivered them already).
	Origin string
	// Seq numbers the events of one origin, from 1 up; 0 means unnumbered.
	Seq uint64
}

// ErrVersion is the error of decoding an event of a wire version this
// package does not read (a newer instance during a rolling upgrade); such
// events are dropped.
var ErrVersion = errors.New("fanout: unknown event version")

// wireEvent is an Event on the wire.
type wireEvent struct {
	V      int    `json:"v"`
	Kind   Kind   `json:"kind"`
	URI    string `json:"uri,omitempty"`
	Task   string `json:"task,omitempty"`
	Status string `json:"status,omitempty"`
	Origin string `json:"origin"`
	Seq    uint64 `json:"seq,omitempty"`
}

// MarshalJSON encodes e in the wire format. It fails for an event that
// check refuses.
func (e Event) MarshalJSON() ([]byte, error) {
	if err := e.check(); err != nil {
		return nil, err
	}
	return json.Marshal(wireEvent{V: Version, Kind: e.Kind, URI: e.URI, Task: e.TaskID, Status: e.Status, Origin: e.Origin, Seq: e.Seq})
}

// UnmarshalJSON decodes an event in the wire format: a version other than
// Version is ErrVersion, an unknown kind or a misplaced uri or task an
// error.
func (e *Event) UnmarshalJSON(b []byte) error {
	var w wireEvent
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("fanout: not an event: %w", err)
	}
	if w.V != Version {
		return fmt.Errorf("%w: %d (this one reads %d)", ErrVersion, w.V, Version)
	}
	ev := Event{Kind: w.Kind, URI: w.URI, TaskID: w.Task, Status: w.Status, Origin: w.Origin, Seq: w.Seq}
	if err := ev.check(); err != nil {
		return err
	}
	*e = ev
	return nil
}

// check reports what makes e unfit for the wire.
func (e Event) check() error {
	if e.Kind != TaskStatus && (e.TaskID != "" || e.Status != "") {
		return fmt.Errorf("fanout: a %s event has no task", e.Kind)
	}
	switch e.Kind {
	case ToolsListChanged, PromptsListChanged, ResourcesListChanged:
		if e.URI != "" {
			return fmt.Errorf("fanout: a %s event has no uri", e.Kind)
		}
	case ResourceUpdated:
		if e.URI == "" {
			return errors.New("fanout: a resources/updated event needs a uri")
		}
	case TaskStatus:
		if e.TaskID == "" || e.URI != "" {
			return errors.New("fanout: a tasks event needs a task and has no uri")
		}
	default:
		return fmt.Errorf("fanout: unknown event kind %q", e.Kind)
	}
	return nil
}

// Broker carries events between the instances of one deployment. Its
// methods are safe for concurrent use.
type Broker interface {
	// Publish sends ev to every subscription of every instance (this
	// one's included or not: a server ignores its own events by Origin).
	// It may wait on the network until ctx is done; a server calls it
	// from a goroutine of its own, never while holding a lock, and logs an
	// error at debug level only: an implementation logs and counts its own
	// failures.
	Publish(ctx context.Context, ev Event) error
	// Subscribe calls deliver with every event published, by any
	// instance, from now until cancel is called; an implementation that
	// loses its connection restores it on its own. deliver must not block
	// (it queues or drops) and may be called from several goroutines at
	// once. cancel may be called more than once; once it returns, deliver
	// is not called again.
	Subscribe(deliver func(Event)) (cancel func())
}

// Memory is a Broker within one process: it fans events out among the
// servers that share it, each event encoded and decoded on the way as on
// a network, and delivered before Publish returns. It suits tests and
// examples; its zero value is ready to use.
type Memory struct {
	mu   sync.RWMutex // read-held while delivering, so cancel waits for it
	subs map[*func(Event)]struct{}
}

var _ Broker = (*Memory)(nil)

// Publish implements Broker.
func (m *Memory) Publish(ctx context.Context, ev Event) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b, err := ev.MarshalJSON()
	if err != nil {
		return err
	}
	var got Event
	if err := got.UnmarshalJSON(b); err != nil {
		return err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	for d := range m.subs {
		(*d)(got)
	}
	return nil
}

// Subscribe implements Broker.
func (m *Memory) Subscribe(deliver func(Event)) (cancel func()) {
	d := &deliver
	m.mu.Lock()
	if m.subs == nil {
		m.subs = map[*func(Event)]struct{}{}
	}
	m.subs[d] = struct{}{}
	m.mu.Unlock()
	return func() {
		m.mu.Lock()
		delete(m.subs, d)
		m.mu.Unlock()
	}
}

// Subscribers reports how many subscriptions are open.
func (m *Memory) Subscribers() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.subs)
}
