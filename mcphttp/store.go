package mcphttp

import (
	"errors"
	"strconv"
	"strings"
	"sync"
)

// Defaults of the in-memory event store (Options.MaxStoredEvents,
// Options.MaxStoredEventBytes).
const (
	// DefaultMaxStoredEvents bounds the SSE events held per legacy session.
	DefaultMaxStoredEvents = 256
	// DefaultMaxStoredEventBytes bounds the bytes of the SSE events held
	// per legacy session, 1 MiB.
	DefaultMaxStoredEventBytes = 1 << 20
)

// Errors of EventStore.Replay.
var (
	// ErrEventExpired: the event named is older than what the store still
	// holds for the session; the events after it are lost.
	ErrEventExpired = errors.New("mcphttp: the event is no longer held (evicted)")
	// ErrEventUnknown: the store never gave out this event id in this
	// session.
	ErrEventUnknown = errors.New("mcphttp: unknown event id")
)

// EventStore holds the SSE events of legacy sessions, so that a client that
// lost a stream can resume it: a GET with Mcp-Session-Id and Last-Event-ID
// gets the events of that stream it missed (Replay), then the stream goes
// on. Every SSE event of a legacy session is appended before it is written,
// and the id the store gives is the event's SSE id. A Handler calls Forget
// when a session ends and appends nothing for it afterwards.
//
// The default (Options.EventStore nil) is a MemoryEventStore bounded per
// session by Options.MaxStoredEvents and Options.MaxStoredEventBytes; an
// implementation shared by several servers (Redis, say) lets a client
// resume on another replica. Implementations must be safe for concurrent
// use; Append is called for every event, so it should be quick.
type EventStore interface {
	// Append stores data (one encoded JSON-RPC message; empty for a
	// priming event) as the next event of stream in session and returns
	// its id: unique within the session, naming the stream and the event's
	// position in it, so that Replay can find both from the id alone.
	Append(session, stream string, data []byte) (id string, err error)
	// Replay calls yield, in order, with every event of the stream lastID
	// belongs to that was appended after it, and returns that stream. It
	// stops at the first error yield returns, and returns it. It returns
	// ErrEventExpired when lastID is older than what is held, and
	// ErrEventUnknown when lastID was never given out in session.
	Replay(session, lastID string, yield func(id string, data []byte) error) (stream string, err error)
	// Forget drops everything held for session, which ended.
	Forget(session string)
}

// MemoryEventStore is the in-memory EventStore: per session, the last
// events appended (of all its streams), at most maxEvents of them and
// maxBytes of data; older ones are evicted, oldest first. An event larger
// than maxBytes on its own is not held at all (a client that missed it
// cannot resume past it). Event ids are "STREAM-N", N counting the
// session's events from 1.
type MemoryEventStore struct {
	maxEvents int
	maxBytes  int64

	mu       sync.Mutex
	sessions map[string]*eventLog
}

// NewMemoryEventStore returns an in-memory store holding at most maxEvents
// events and maxBytes bytes of data per session (the defaults when zero or
// negative).
func NewMemoryEventStore(maxEvents int, maxBytes int64) *MemoryEventStore {
	if maxEvents <= 0 {
		maxEvents = DefaultMaxStoredEvents
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxStoredEventBytes
	}
	return &MemoryEventStore{maxEvents: maxEvents, maxBytes: maxBytes, sessions: map[string]*eventLog{}}
}

// eventLog is one session's events: events[i] has sequence number first+i.
type eventLog struct {
	mu     sync.Mutex
	events []storedEvent
	first  uint64 // sequence number of events[0] (of the next event when empty)
	next   uint64 // sequence number of the next event appended
	bytes  int64
}

type storedEvent struct {
	stream string
	data   []byte
}

func (m *MemoryEventStore) log(session string, create bool) *eventLog {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.sessions[session]
	if l == nil && create {
		l = &eventLog{first: 1, next: 1}
		m.sessions[session] = l
	}
	return l
}

// Append implements EventStore.
func (m *MemoryEventStore) Append(session, stream string, data []byte) (string, error) {
	l := m.log(session, true)
	l.mu.Lock()
	defer l.mu.Unlock()
	seq := l.next
	l.next++
	l.events = append(l.events, storedEvent{stream: stream, data: append([]byte(nil), data...)})
	l.bytes += int64(len(data))
	for len(l.events) > 0 && (len(l.events) > m.maxEvents || l.bytes > m.maxBytes) {
		l.bytes -= int64(len(l.events[0].data))
		l.events[0] = storedEvent{}
		l.events = l.events[1:]
		l.first++
	}
	if len(l.events) == 0 {
		l.events = nil // let the backing array go
	}
	return stream + "-" + strconv.FormatUint(seq, 10), nil
}

// Replay implements EventStore.
func (m *MemoryEventStore) Replay(session, lastID string, yield func(id string, data []byte) error) (string, error) {
	stream, seq, ok := parseEventID(lastID)
	if !ok {
		return "", ErrEventUnknown
	}
	l := m.log(session, false)
	if l == nil {
		return "", ErrEventUnknown
	}
	l.mu.Lock()
	if seq >= l.next {
		l.mu.Unlock()
		return "", ErrEventUnknown
	}
	if seq < l.first {
		l.mu.Unlock()
		return "", ErrEventExpired
	}
	if l.events[seq-l.first].stream != stream {
		l.mu.Unlock()
		return "", ErrEventUnknown
	}
	type ev struct {
		id   string
		data []byte
	}
	var out []ev
	for i := seq - l.first + 1; i < uint64(len(l.events)); i++ {
		if e := l.events[i]; e.stream == stream {
			// data is never modified once stored: shared, not copied.
			out = append(out, ev{stream + "-" + strconv.FormatUint(l.first+i, 10), e.data})
		}
	}
	l.mu.Unlock()
	for _, e := range out {
		if err := yield(e.id, e.data); err != nil {
			return stream, err
		}
	}
	return stream, nil
}

// Forget implements EventStore.
func (m *MemoryEventStore) Forget(session string) {
	m.mu.Lock()
	delete(m.sessions, session)
	m.mu.Unlock()
}

// sessionsHeld reports how many sessions the store holds events for (for
// the tests: Forget leaves nothing behind).
func (m *MemoryEventStore) sessionsHeld() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.sessions)
}

// parseEventID splits "STREAM-N".
func parseEventID(id string) (stream string, seq uint64, ok bool) {
	i := strings.LastIndexByte(id, '-')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.ParseUint(id[i+1:], 10, 64)
	if err != nil || n == 0 {
		return "", 0, false
	}
	return id[:i], n, true
}
