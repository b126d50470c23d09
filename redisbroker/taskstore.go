package redisbroker

import (
	"context"
	"errors"
	"fmt"
	"time"

	json "github.com/goccy/go-json"
	"github.com/redis/go-redis/v9"

	"github.com/mcpwire/mcpwire/task"
)

// Defaults of a TaskStore.
const (
	// DefaultTaskPrefix starts every key of a TaskStore. Its braces are a
	// Redis Cluster hash tag: the records and their index live in one
	// slot, as the store's scripts need.
	DefaultTaskPrefix = "{mcpwire:tasks}:"
	// DefaultMaxRecordBytes bounds one record's JSON.
	DefaultMaxRecordBytes = 1 << 20
	// DefaultTaskTimeout bounds each operation of the store.
	DefaultTaskTimeout = 3 * time.Second
)

// maxIDLen bounds the ids looked up: task.NewID's are 22 characters, and
// an id from a client that is longer is no task's.
const maxIDLen = 128

// ErrRecordTooLarge is the error of a Create or Update whose record's JSON
// is over TaskStoreOptions.MaxRecordBytes; nothing is stored.
var ErrRecordTooLarge = errors.New("redisbroker: task record too large")

// ErrUnavailable matches (errors.Is) every error of a TaskStore that is
// Redis's, not the record's: Redis unreachable, timed out, or refusing
// the command. The error also wraps go-redis's own.
var ErrUnavailable = errors.New("redisbroker: the task store's Redis is unavailable")

// TaskStoreOptions configure a TaskStore. The zero value is ready to use.
type TaskStoreOptions struct {
	// Prefix starts the store's keys (default DefaultTaskPrefix):
	// Prefix+"t:"+id holds a record, Prefix+"live" the index of live ids
	// the bound counts, Prefix+"c:"+caller the index of one caller's
	// (task.Task.Caller) that its quota counts. Deployments that share a
	// Redis keep apart by prefixes of their own. A prefix starts with a
	// Redis Cluster hash tag, as the default does, for the store to work
	// on a cluster.
	Prefix string
	// MaxTasks bounds the live records (default task.DefaultMaxTasks):
	// Create returns task.ErrFull past it, as the memory store does.
	MaxTasks int
	// MaxRecordBytes bounds a record's JSON (default
	// DefaultMaxRecordBytes): a task's result, its questions and answers
	// are in its record.
	MaxRecordBytes int
	// Timeout bounds each Create, Get and Update, with every retry of an
	// Update (default DefaultTaskTimeout), whatever the caller's context.
	// A Redis that hangs rather than refusing connections is cut off by
	// it only when the client has ContextTimeoutEnabled; otherwise
	// go-redis's ReadTimeout and MaxRetries bound the wait.
	Timeout time.Duration
}

// TaskStore is a task.Store over Redis, shared by the instances of a
// deployment: a task created through one instance is polled, answered
// and cancelled through any other. Its methods are safe for concurrent
// use.
//
// A record is its JSON under Prefix+"t:"+id, expiring (a Redis PX expiry)
// its TTL after its last update, refreshed by every Update: never earlier,
// as task.Store requires, and dropped by Redis at that time. A record
// with no TTL has no expiry. Create is one script (exists, quota, full,
// store); Update reads the record, applies fn, and stores the result with
// a compare-and-set script that succeeds only if the record is still the
// one read, retrying otherwise: fn may run more than once, as task.Store
// allows.
//
// Every record's id is also in the sorted set Prefix+"live", scored by
// its expiry in Redis's clock, for the MaxTasks bound, and the id of a
// record with a caller in the sorted set Prefix+"c:"+caller, scored the
// same, for the quota per caller Create is given: Create first drops the
// entries of both past their expiry, in the same script that counts them
// and stores the record, so that no two instances can both take a
// caller's last place. A caller's set expires with its last record, so
// the callers that stop creating tasks leave nothing behind. An entry of
// a record that Redis evicted under maxmemory (only records without a TTL
// would linger) counts until the record's id is created again; give Redis
// a maxmemory-policy of noeviction or volatile-* when it holds other data.
type TaskStore struct {
	rdb     redis.UniversalClient
	prefix  string
	max     int
	maxSize int
	timeout time.Duration
}

var _ task.Store = (*TaskStore)(nil)

// NewTaskStore returns a store over rdb, which stays the caller's: close
// it after the servers using the store are closed. opts may be nil.
func NewTaskStore(rdb redis.UniversalClient, opts *TaskStoreOptions) *TaskStore {
	if opts == nil {
		opts = &TaskStoreOptions{}
	}
	s := &TaskStore{rdb: rdb, prefix: opts.Prefix, max: opts.MaxTasks, maxSize: opts.MaxRecordBytes, timeout: opts.Timeout}
	if s.prefix == "" {
		s.prefix = DefaultTaskPrefix
	}
	if s.max <= 0 {
		s.max = task.DefaultMaxTasks
	}
	if s.maxSize <= 0 {
		s.maxSize = DefaultMaxRecordBytes
	}
	if s.timeout <= 0 {
		s.timeout = DefaultTaskTimeout
	}
	return s
}

func (s *TaskStore) key(id string) string { return s.prefix + "t:" + id }
func (s *TaskStore) index() string        { return s.prefix + "live" }

// holder is the key of the index of caller's records. The empty caller,
// whose records count against no one, has none; its key is named to the
// scripts all the same (they are told not to use it), since a script
// declares every key it may touch.
func (s *TaskStore) holder(caller string) string { return s.prefix + "c:" + caller }

// held is the scripts' flag for whether a record is indexed under its
// caller.
func held(caller string) string {
	if caller == "" {
		return "0"
	}
	return "1"
}

// The scripts' common part: now is Redis's clock in milliseconds; store
// sets the record (ARGV[1]) with its expiry in ms (ARGV[2], 0 for none)
// and scores its id (ARGV[3]) in the index (KEYS[2]) and, when held is
// "1", in its caller's (KEYS[3]), which then lives as long as its
// longest-lived entry: no expiry while one has none, else the last one's.
const scriptHead = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function store(held)
  local px = tonumber(ARGV[2])
  local score = '+inf'
  if px > 0 then
    redis.call('SET', KEYS[1], ARGV[1], 'PX', px)
    score = now + px
  else
    redis.call('SET', KEYS[1], ARGV[1])
  end
  redis.call('ZADD', KEYS[2], score, ARGV[3])
  if held ~= '1' then return end
  redis.call('ZADD', KEYS[3], score, ARGV[3])
  if redis.call('ZCOUNT', KEYS[3], '+inf', '+inf') > 0 then
    redis.call('PERSIST', KEYS[3])
  else
    local last = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')
    redis.call('PEXPIREAT', KEYS[3], last[2])
  end
end
`

// createScript: KEYS record, index, the caller's index; ARGV json, px,
// id, max, held, the quota (0 for none). The caller's quota is checked
// before the bound (see task.Store).
var createScript = redis.NewScript(scriptHead + `
if redis.call('EXISTS', KEYS[1]) == 1 then return 'exists' end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if ARGV[5] == '1' then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  local quota = tonumber(ARGV[6])
  if quota > 0 and redis.call('ZSCORE', KEYS[3], ARGV[3]) == false and redis.call('ZCARD', KEYS[3]) >= quota then
    return 'quota'
  end
end
if redis.call('ZSCORE', KEYS[2], ARGV[3]) == false and redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then
  return 'full'
end
store(ARGV[5])
return 'ok'
`)

// casScript: KEYS record, index, the caller's index; ARGV json, px, id,
// the json read, held. The record read names the caller, and the json
// stored keeps it (Update restores it), so the record stays in the index
// it was created in.
var casScript = redis.NewScript(scriptHead + `
local cur = redis.call('GET', KEYS[1])
if cur == false then return 'gone' end
if cur ~= ARGV[4] then return 'conflict' end
store(ARGV[5])
return 'ok'
`)

// Create implements task.Store.
func (s *TaskStore) Create(ctx context.Context, t *task.Task, maxPerCaller int) error {
	body, err := s.encode(t)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	keys := []string{s.key(t.ID), s.index(), s.holder(t.Caller)}
	res, err := createScript.Run(ctx, s.rdb, keys, body, expiryMs(t), t.ID, s.max, held(t.Caller), max(0, maxPerCaller)).Text()
	switch {
	case err != nil:
		return unavailable("create", err)
	case res == "exists":
		return task.ErrExists
	case res == "quota":
		return task.ErrQuota
	case res == "full":
		return task.ErrFull
	}
	return nil
}

// Get implements task.Store.
func (s *TaskStore) Get(ctx context.Context, id string) (*task.Task, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	_, t, err := s.read(ctx, id)
	return t, err
}

// read returns the record with id, as stored and decoded.
func (s *TaskStore) read(ctx context.Context, id string) (string, *task.Task, error) {
	if id == "" || len(id) > maxIDLen {
		return "", nil, task.ErrNotFound
	}
	raw, err := s.rdb.Get(ctx, s.key(id)).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return "", nil, task.ErrNotFound
	case err != nil:
		return "", nil, unavailable("get", err)
	}
	t := new(task.Task)
	if err := json.Unmarshal([]byte(raw), t); err != nil {
		return "", nil, fmt.Errorf("redisbroker: task record %s is not JSON a task.Task reads: %w", id, err)
	}
	return raw, t, nil
}

// Update implements task.Store: read, fn, compare-and-set, retried while
// another Update of the record came between, until s's Timeout.
func (s *TaskStore) Update(ctx context.Context, id string, fn func(*task.Task) error) (*task.Task, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	backoff := time.Millisecond
	for {
		old, t, err := s.read(ctx, id)
		if err != nil {
			return nil, err
		}
		caller := t.Caller
		if err := fn(t); err != nil {
			return nil, err
		}
		t.Caller = caller // the record stays in the index of the caller it was created for
		body, err := s.encode(t)
		if err != nil {
			return nil, err
		}
		keys := []string{s.key(id), s.index(), s.holder(caller)}
		res, err := casScript.Run(ctx, s.rdb, keys, body, expiryMs(t), id, old, held(caller)).Text()
		switch {
		case err != nil:
			return nil, unavailable("update", err)
		case res == "ok":
			return t, nil
		case res == "gone":
			return nil, task.ErrNotFound
		}
		// Another Update won: read again, after a pause that grows.
		timer := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, unavailable("update", fmt.Errorf("gave up on conflicting updates: %w", context.Cause(ctx)))
		case <-timer.C:
		}
		backoff = min(2*backoff, 50*time.Millisecond)
	}
}

// encode is t's JSON, within the store's bound.
func (s *TaskStore) encode(t *task.Task) (string, error) {
	body, err := json.Marshal(t)
	if err != nil {
		return "", fmt.Errorf("redisbroker: encoding task %s: %w", t.ID, err)
	}
	if len(body) > s.maxSize {
		return "", fmt.Errorf("%w: task %s is %d bytes, over the bound of %d", ErrRecordTooLarge, t.ID, len(body), s.maxSize)
	}
	return string(body), nil
}

// expiryMs is the Redis expiry of t, in milliseconds from now: what is
// left of its TTL since its last update (at least 1, for a record stored
// already expired), or 0 for none. Rounded up, never early.
func expiryMs(t *task.Task) int64 {
	exp := t.Expires()
	if exp.IsZero() {
		return 0
	}
	left := time.Until(exp)
	return int64(max(1, (left+time.Millisecond-1)/time.Millisecond))
}

// unavailable wraps an error of Redis's; a caller's cancellation is
// returned as such, not as Redis's fault.
func unavailable(op string, err error) error {
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("redisbroker: task store %s: %w", op, err)
	}
	return &storeError{op: op, err: err}
}

type storeError struct {
	op  string
	err error
}

func (e *storeError) Error() string {
	return fmt.Sprintf("redisbroker: task store %s: Redis is unavailable: %v", e.op, e.err)
}

func (e *storeError) Unwrap() []error { return []error{ErrUnavailable, e.err} }
