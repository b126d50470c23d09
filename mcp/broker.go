package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/fanout"
)

// Bounds of the relay between a server and its Options.Broker.
const (
	// relayOutbox bounds the events waiting to be published; one more is
	// dropped (and counted by the other instances as a gap).
	relayOutbox = 256
	// relayPendingURIs bounds the distinct resource updates and task
	// status changes from other instances waiting for delivery here; one
	// more is dropped.
	relayPendingURIs = 1024
	// relayPublishTimeout bounds one Broker.Publish.
	relayPublishTimeout = 5 * time.Second
	// relayLogEvery spaces the warnings about dropped events.
	relayLogEvery = 10 * time.Second
)

// relay joins a server to its Options.Broker. Local events are numbered and
// queued for one publishing goroutine, so that a slow or unreachable
// broker never holds up AddTool or ResourceUpdated; events from other
// instances are coalesced into a bounded inbox that one delivering
// goroutine drains into the local connections, so that a slow connection
// never holds up the broker's reader.
type relay struct {
	srv    *Server
	broker fanout.Broker
	origin string

	mu     sync.Mutex
	seq    uint64
	closed bool
	outbox chan fanout.Event
	drops  lossLog // events dropped for want of outbox space

	in inbox

	cancelSub func()
	stop      chan struct{} // closed by Close: the delivering goroutine ends
	pubCtx    context.Context
	pubCancel context.CancelFunc
	delivered chan struct{} // closed when the delivering goroutine ended
	published chan struct{} // closed when the publishing goroutine ended
}

// startRelay joins s to its Options.Broker, when it has one.
func (s *Server) startRelay() {
	if s.opts.Broker == nil {
		return
	}
	id := make([]byte, 8)
	rand.Read(id)
	r := &relay{srv: s, broker: s.opts.Broker, origin: hex.EncodeToString(id),
		outbox: make(chan fanout.Event, relayOutbox), stop: make(chan struct{}),
		delivered: make(chan struct{}), published: make(chan struct{})}
	r.in.wake = make(chan struct{}, 1)
	r.pubCtx, r.pubCancel = context.WithCancel(context.Background())
	s.relay = r
	go r.publishLoop()
	go r.deliverLoop()
	r.cancelSub = r.broker.Subscribe(r.receive)
}

// raise delivers an event to this server's connections and, with a
// Broker, publishes it to the other instances. A list change raised while
// the server serves no connection at all (registrations at start-up,
// before Serve or an HTTP handler) is not published: every instance
// registers the same at start-up, and telling every client of the
// deployment that its list changed each time an instance starts would
// only make them list again for nothing.
func (s *Server) raise(ev fanout.Event) {
	s.deliver(ev)
	s.publish(ev)
}

// publish tells the other instances of ev (Options.Broker), if any.
func (s *Server) publish(ev fanout.Event) {
	if s.relay == nil {
		return
	}
	if ev.Kind != fanout.ResourceUpdated {
		s.sessMu.Lock()
		serving := len(s.sessions) > 0
		s.sessMu.Unlock()
		if !serving {
			return
		}
	}
	s.relay.publish(ev)
}

// publish numbers ev and queues it for the broker, dropping it when the
// queue is full or the relay closed.
func (r *relay) publish(ev fanout.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.seq++
	ev.Origin, ev.Seq = r.origin, r.seq
	select {
	case r.outbox <- ev:
	default:
		r.drops.note(r.srv.log, "mcp: the broker is not keeping up; events for the other instances dropped")
	}
}

// publishLoop hands queued events to the broker, one at a time.
func (r *relay) publishLoop() {
	defer close(r.published)
	for ev := range r.outbox {
		if r.pubCtx.Err() != nil {
			continue // Close gave up waiting: the rest are dropped
		}
		ctx, cancel := context.WithTimeout(r.pubCtx, relayPublishTimeout)
		err := r.broker.Publish(ctx, ev)
		cancel()
		if err != nil {
			r.srv.log.Debug("mcp: publishing an event to the broker failed", "kind", ev.Kind, "seq", ev.Seq, "err", err)
		}
	}
}

// receive takes an event from the broker; it never blocks.
func (r *relay) receive(ev fanout.Event) {
	if ev.Origin == r.origin {
		return // delivered here when it was raised
	}
	if !r.in.push(ev) {
		what := "resource updates"
		if ev.Kind == fanout.TaskStatus {
			what = "task status changes"
		}
		r.in.drops.note(r.srv.log, "mcp: "+what+" from other instances dropped: too many waiting for delivery")
	}
}

// deliverLoop delivers what the inbox holds to this server's connections.
func (r *relay) deliverLoop() {
	defer close(r.delivered)
	for {
		select {
		case <-r.stop:
			return
		case <-r.in.wake:
		}
		for _, ev := range r.in.take() {
			r.srv.deliver(ev)
		}
	}
}

// close unsubscribes, stops delivering and publishes what is queued,
// waiting at most grace for it and for a delivery under way.
func (r *relay) close(grace time.Duration) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.closed = true
	close(r.outbox)
	r.mu.Unlock()
	r.cancelSub()
	close(r.stop)
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	select {
	case <-r.published:
	case <-deadline.C:
		r.pubCancel()
		<-r.published
		return // a delivery still under way ends on its own
	}
	r.pubCancel()
	// A delivery under way may wait for a slow connection's output space;
	// it ends with that connection's shutdown at the latest.
	select {
	case <-r.delivered:
	case <-deadline.C:
	}
}

// Close detaches the server from its Options.Broker: it unsubscribes, so
// no event from another instance is delivered here any more, and gives the
// events still queued for the other instances up to Options.ShutdownGrace
// to be published. Events raised afterwards reach this server's own
// connections only. Close does not end the connections being served (their
// contexts and Endpoint.Close do), and may be called more than once; it
// returns nil. A server without a Broker has nothing to close. Close also
// cancels the handlers of the tasks running on this server (their records
// stay in Options.TaskStore).
func (s *Server) Close() error {
	s.tasks.closeAll()
	if s.relay != nil {
		s.relay.close(s.opts.ShutdownGrace)
	}
	return nil
}

// inbox holds the events from other instances that wait for delivery,
// coalesced: a list change waits once whatever number of times it
// arrived, a resource update once per URI, a task status change once per
// task. Notifications say "look again" (a task's is read from the store
// when delivered), so one delivery of each stands for all.
type inbox struct {
	mu    sync.Mutex
	lists []fanout.Kind  // list changes waiting, each once
	keyed []fanout.Event // resource updates and task changes waiting, in arrival order
	has   map[inboxKey]bool
	wake  chan struct{} // holds one token while anything waits
	drops lossLog
}

// inboxKey is what coalesces a keyed event: its kind and URI or task.
type inboxKey struct {
	kind fanout.Kind
	key  string
}

// push queues ev, reporting false when it had to be dropped.
func (in *inbox) push(ev fanout.Event) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	switch ev.Kind {
	case fanout.ResourceUpdated, fanout.TaskStatus:
		k := inboxKey{ev.Kind, ev.URI + ev.TaskID}
		if in.has[k] {
			return true
		}
		if len(in.keyed) >= relayPendingURIs {
			return false
		}
		if in.has == nil {
			in.has = map[inboxKey]bool{}
		}
		in.has[k] = true
		in.keyed = append(in.keyed, fanout.Event{Kind: ev.Kind, URI: ev.URI, TaskID: ev.TaskID})
	default:
		for _, k := range in.lists {
			if k == ev.Kind {
				return true
			}
		}
		in.lists = append(in.lists, ev.Kind)
	}
	select {
	case in.wake <- struct{}{}:
	default:
	}
	return true
}

// take empties the inbox, list changes first.
func (in *inbox) take() []fanout.Event {
	in.mu.Lock()
	defer in.mu.Unlock()
	evs := make([]fanout.Event, 0, len(in.lists)+len(in.keyed))
	for _, k := range in.lists {
		evs = append(evs, fanout.Event{Kind: k})
	}
	evs = append(evs, in.keyed...)
	in.lists, in.keyed = in.lists[:0], nil
	clear(in.has)
	return evs
}

// lossLog counts dropped events and warns about them at most once per
// relayLogEvery, with the count since the last warning.
type lossLog struct {
	mu     sync.Mutex
	total  int64
	unsaid int64
	last   time.Time
}

func (l *lossLog) note(log *slog.Logger, msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.total++
	l.unsaid++
	if now := time.Now(); l.last.IsZero() || now.Sub(l.last) >= relayLogEvery {
		log.Warn(msg, "dropped", l.unsaid, "total", l.total)
		l.unsaid, l.last = 0, now
	}
}
