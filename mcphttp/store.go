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
	// defaultMaxStoredEvents bounds the SSE events held per legacy session.
	defaultMaxStoredEvents = 256
	// defaultMaxStoredEventBytes bounds the bytes of the SSE events held
	// per legacy session, 1 MiB.
	defaultMaxStoredEventBytes = 1 << 20
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
// session by Options.MaxStoredEvents and Options.MaxStoredEventBytes, and
// across sessions by Options.MaxEventStoreBytes; an
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
// maxBytes of data; older ones are evicted, oldest first. All sessions
// together hold at most maxTotalBytes of data: past it the oldest events
// are evicted in the order they were appended, whichever session they
// belong to, so that many sessions cannot multiply the per-session bound.
// An event larger than maxBytes (or maxTotalBytes) on its own is not held
// at all (a client that missed it cannot resume past it). Event ids are
// "STREAM-N", N counting the session's events from 1.
type MemoryEventStore struct {
	maxEvents int
	maxBytes  int64
	maxTotal  int64

	// One lock for everything: evicting for the total takes events from
	// any session's log, which per-log locks would have to take in an order
	// no caller could keep. Append holds it for a few slice operations.
	mu       sync.Mutex
	sessions map[string]*eventLog
	total    int64 // bytes of data held across sessions
	held     int   // events held across sessions
	order    appendOrder
}

// NewMemoryEventStore returns an in-memory store holding at most maxEvents
// events and maxBytes bytes of data per session, and maxTotalBytes bytes of
// data across all sessions (the defaults defaultMaxStoredEvents,
// defaultMaxStoredEventBytes and defaultMaxEventStoreBytes when zero or
// negative).
func NewMemoryEventStore(maxEvents int, maxBytes, maxTotalBytes int64) *MemoryEventStore {
	if maxEvents <= 0 {
		maxEvents = defaultMaxStoredEvents
	}
	if maxBytes <= 0 {
		maxBytes = defaultMaxStoredEventBytes
	}
	if maxTotalBytes <= 0 {
		maxTotalBytes = defaultMaxEventStoreBytes
	}
	return &MemoryEventStore{maxEvents: maxEvents, maxBytes: maxBytes, maxTotal: maxTotalBytes, sessions: map[string]*eventLog{}}
}

// eventLog is one session's events: events[i] has sequence number first+i.
// Its fields are guarded by the store's mu.
type eventLog struct {
	events []storedEvent
	first  uint64 // sequence number of events[0] (of the next event when empty)
	next   uint64 // sequence number of the next event appended
	bytes  int64
	forgot bool // Forget dropped it: its entries in the append order are stale
}

type storedEvent struct {
	stream string
	data   []byte
}

// dropFirst evicts l's oldest event and returns its size.
func (l *eventLog) dropFirst() int64 {
	n := int64(len(l.events[0].data))
	l.bytes -= n
	l.events[0] = storedEvent{}
	l.events = l.events[1:]
	l.first++
	if len(l.events) == 0 {
		l.events = nil // let the backing array go
	}
	return n
}

// Append implements EventStore.
func (m *MemoryEventStore) Append(session, stream string, data []byte) (string, error) {
	data = append([]byte(nil), data...) // copied before the lock is taken
	m.mu.Lock()
	l := m.sessions[session]
	if l == nil {
		l = &eventLog{first: 1, next: 1}
		m.sessions[session] = l
	}
	seq := l.next
	l.next++
	l.events = append(l.events, storedEvent{stream: stream, data: data})
	l.bytes += int64(len(data))
	m.total += int64(len(data))
	m.held++
	m.order.push(l, seq)
	for len(l.events) > 0 && (len(l.events) > m.maxEvents || l.bytes > m.maxBytes) {
		m.total -= l.dropFirst()
		m.held--
	}
	for m.total > m.maxTotal {
		// The oldest event still held: its log's first (a log's events
		// are in the append order too).
		ol := m.order.popOldest()
		m.total -= ol.dropFirst()
		m.held--
	}
	m.order.compact(m.held)
	m.mu.Unlock()
	return stream + "-" + strconv.FormatUint(seq, 10), nil
}

// Replay implements EventStore.
func (m *MemoryEventStore) Replay(session, lastID string, yield func(id string, data []byte) error) (string, error) {
	stream, seq, ok := parseEventID(lastID)
	if !ok {
		return "", ErrEventUnknown
	}
	m.mu.Lock()
	l := m.sessions[session]
	if l == nil || seq >= l.next {
		m.mu.Unlock()
		return "", ErrEventUnknown
	}
	if seq < l.first {
		m.mu.Unlock()
		return "", ErrEventExpired
	}
	if l.events[seq-l.first].stream != stream {
		m.mu.Unlock()
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
	m.mu.Unlock()
	for _, e := range out {
		if err := yield(e.id, e.data); err != nil {
			return stream, err
		}
	}
	return stream, nil
}

// Forget implements EventStore. The session's bytes leave the total at
// once; its entries in the append order are skipped as stale.
func (m *MemoryEventStore) Forget(session string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.sessions[session]
	if l == nil {
		return
	}
	delete(m.sessions, session)
	m.total -= l.bytes
	m.held -= len(l.events)
	l.events, l.bytes, l.forgot = nil, 0, true
	m.order.compact(m.held)
}

// sessionsHeld reports how many sessions the store holds events for (for
// the tests: Forget leaves nothing behind).
func (m *MemoryEventStore) sessionsHeld() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.sessions)
}

// usage reports the bytes and events held across sessions and the length
// of the append order (for the tests: the total stays within its bound,
// and stale entries do not pile up).
func (m *MemoryEventStore) usage() (bytes int64, events, order int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.total, m.held, m.order.len()
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
