// Package task is the state of the tasks extension (io.modelcontextprotocol/tasks,
// SEP-2663): the record of one long-running tool call that outlives its
// request, and the Store that keeps records where every instance of a
// server can find them.
//
// Package mcp creates a record when a tools/call becomes a task, updates
// it as the handler runs, and reads it for tasks/get, tasks/update and
// tasks/cancel. A Store holds records only: the handler runs on the
// instance that started it (or resumed it after tasks/update), and what a
// task needs to resume anywhere (its tool, arguments, the answers and
// remembered values of its rounds) is in the record.
//
// The rules a Store keeps (SEP-2663, as the conformance suite
// 0.2.0-alpha.12 states them):
//   - a record is visible from the moment Create returns (an immediate
//     tasks/get must find it: "durable create");
//   - a record is never dropped before its TTL has passed since it was
//     last updated ("a server MUST NOT expire it earlier"), and is
//     dropped some time after;
//   - ids are unguessable (see NewID): knowing one is the capability to
//     poll, answer and cancel the task, together with being its owner;
//   - a caller (Task.Caller) holds at most the maxPerCaller unexpired
//     records its Create is given, checked atomically with the insert on
//     every instance sharing the store, so that one caller cannot fill the
//     store and lock out every other; a record counts until it expires,
//     terminal ones included, since the rule above forbids dropping one
//     sooner to make room.
//
// NewMemory is the default Store, for one process; the redisbroker module
// has one shared by instances.
package task

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"time"

	json "github.com/goccy/go-json"
)

// Status is where a task is in its lifecycle.
type Status string

// The statuses of SEP-2663. Completed, Failed and Cancelled are terminal:
// a terminal task never changes status again.
const (
	// Working: the handler is running.
	Working Status = "working"
	// InputRequired: the handler waits for answers (tasks/update).
	InputRequired Status = "input_required"
	// Completed: the tool ran; Result holds its CallToolResult, which may
	// be an isError result (a tool error is a completed task).
	Completed Status = "completed"
	// Failed: the call could not run to a result (a protocol-level
	// error, a panic); Error holds the JSON-RPC error.
	Failed Status = "failed"
	// Cancelled: tasks/cancel stopped it.
	Cancelled Status = "cancelled"
)

// Terminal reports whether s is completed, failed or cancelled.
func (s Status) Terminal() bool { return s == Completed || s == Failed || s == Cancelled }

// Task is one task's record. Every field is plain data, so that a Store
// may keep it as JSON.
type Task struct {
	// ID is the task's id (NewID).
	ID string `json:"id"`
	// Owner is the subject of the principal that created the task, ""
	// for the anonymous caller; only the same subject sees the task.
	Owner string `json:"owner,omitempty"`
	// Caller is whom the record counts against for the store's quota per
	// caller (see Store.Create): the key package mcp names a caller by,
	// its principal's subject, else its remote address. It is bookkeeping,
	// not an authorization fact: Owner alone decides who sees the task.
	// Empty, the record counts against no caller, only the store's bound.
	// A Store keeps it as created: Update does not move a record from one
	// caller to another.
	Caller string `json:"caller,omitempty"`
	// Status, and the optional message that goes with it.
	Status        Status `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	// CreatedAt and UpdatedAt (lastUpdatedAt on the wire).
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	// TTL is how long the task is kept after its last update; 0 keeps it
	// until the Store's own bound evicts it.
	TTL time.Duration `json:"ttl"`
	// PollInterval is the polling hint given to the client.
	PollInterval time.Duration `json:"pollInterval,omitempty"`

	// Result is the CallToolResult of a completed task.
	Result json.RawMessage `json:"result,omitempty"`
	// Error is the JSON-RPC error object of a failed task.
	Error json.RawMessage `json:"error,omitempty"`
	// InputRequests are the pending questions of an input_required task,
	// by key, each an InputRequest object ({method, params}).
	InputRequests map[string]json.RawMessage `json:"inputRequests,omitempty"`

	// What a task needs to resume on any instance: its tool and
	// arguments, the request's client capabilities, the method of each
	// question asked (by key), the answers given so far and the values
	// the handler remembered.
	Tool               string                     `json:"tool"`
	Arguments          json.RawMessage            `json:"arguments,omitempty"`
	ClientCapabilities json.RawMessage            `json:"clientCapabilities,omitempty"`
	Asked              map[string]string          `json:"asked,omitempty"`
	Answers            map[string]json.RawMessage `json:"answers,omitempty"`
	Memo               map[string]json.RawMessage `json:"memo,omitempty"`
}

// Expires returns when the task may be dropped: TTL after its last
// update, or the zero time when it has no TTL.
func (t *Task) Expires() time.Time {
	if t.TTL <= 0 {
		return time.Time{}
	}
	return t.UpdatedAt.Add(t.TTL)
}

// Store keeps task records. Its methods are safe for concurrent use and
// honour ctx where they wait on a network.
type Store interface {
	// Create stores a new record; once it returns nil, Get finds it. It
	// returns ErrExists for an id already stored; ErrQuota when
	// maxPerCaller > 0, t.Caller is not empty and the store already holds
	// maxPerCaller unexpired records of t.Caller (whichever instance
	// created them, and whatever maxPerCaller they were created under);
	// and ErrFull when the store is at its bound with nothing it may
	// evict. The quota is checked before the bound, so that a caller over
	// its own share learns that it is, and atomically with the insert:
	// concurrent Creates of one caller never leave it holding more than
	// maxPerCaller.
	Create(ctx context.Context, t *Task, maxPerCaller int) error
	// Get returns a copy of the record with id, or ErrNotFound (also for
	// an expired one).
	Get(ctx context.Context, id string) (*Task, error)
	// Update applies fn to the record with id atomically with respect to
	// every other Update of it, on every instance sharing the store, and
	// stores the result unless fn returns an error (which Update
	// returns). fn may run more than once (optimistic stores retry) and
	// must not block; a change it makes to Caller is not kept. It
	// returns the record as stored, or ErrNotFound.
	Update(ctx context.Context, id string, fn func(*Task) error) (*Task, error)
}

// Errors of a Store, matched with errors.Is.
var (
	// ErrNotFound: no record with this id (never created, or expired).
	ErrNotFound = errors.New("task: not found")
	// ErrExists: Create was given an id already stored.
	ErrExists = errors.New("task: id already exists")
	// ErrFull: the store holds its maximum of live tasks.
	ErrFull = errors.New("task: store full")
	// ErrQuota: the record's caller already holds the most live records
	// Create allowed it (its maxPerCaller); other callers may still create
	// theirs.
	ErrQuota = errors.New("task: the caller holds its quota of live tasks")
)

// NewID returns a new task id: 128 random bits, base64url without padding
// (22 characters), so that ids can be neither guessed nor enumerated.
func NewID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// Clone returns a deep copy of t, for stores that keep records in memory.
func (t *Task) Clone() *Task {
	c := *t
	c.Result = cloneRaw(t.Result)
	c.Error = cloneRaw(t.Error)
	c.Arguments = cloneRaw(t.Arguments)
	c.ClientCapabilities = cloneRaw(t.ClientCapabilities)
	c.InputRequests = cloneMap(t.InputRequests)
	c.Answers = cloneMap(t.Answers)
	c.Memo = cloneMap(t.Memo)
	if t.Asked != nil {
		c.Asked = make(map[string]string, len(t.Asked))
		for k, v := range t.Asked {
			c.Asked[k] = v
		}
	}
	return &c
}

func cloneRaw(r json.RawMessage) json.RawMessage {
	if r == nil {
		return nil
	}
	return append(json.RawMessage(nil), r...)
}

func cloneMap(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return nil
	}
	c := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		c[k] = cloneRaw(v)
	}
	return c
}
