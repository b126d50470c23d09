// Package redisbroker is a fanout.Broker over Redis pub/sub, for the
// instances of one MCP server deployment (servers behind a load balancer)
// to tell each other's clients of list changes and resource updates:
//
//	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
//	srv := mcp.NewServer(info, &mcp.Options{Broker: redisbroker.New(rdb, nil)})
//	defer srv.Close()
//
// It is a module of its own, so that servers that do not need Redis do
// not link it. Every instance publishes its events on one channel
// (Options.Channel) and subscribes to it; an event travels in the wire
// format of package fanout.
//
// # Outages
//
// Redis pub/sub keeps nothing: an event published while Redis is down,
// or while a subscriber's connection is, is lost. The broker rides an
// outage out on its own: a publish fails (and is counted) while Redis is
// unreachable, and each subscription reconnects and subscribes again as
// soon as Redis is back (go-redis's PubSub does), with no intervention and
// no restart of the server. What was lost is counted (Stats) and logged
// once per outage: the publishes Redis refused, and, on the receiving
// side, the events of other instances that never arrived, seen as gaps in
// their sequence numbers when their next event comes.
//
// Lost notifications are hints lost, not state: a listen client that
// reconnects its stream lists again and re-reads what it follows, as the
// protocol requires of it (no subscription state survives a reconnect),
// so clients that reconnected after an outage catch up on their own.
// Streams that stayed open through a Redis outage see the next change.
//
// # Tasks
//
// TaskStore is the task.Store of the same deployment (mcp.Options.TaskStore),
// over the same client or another: the records of the tasks extension, so
// that a task created through one instance is polled, answered and
// cancelled through any other. Unlike events, records are state: while
// Redis is down the store's errors (ErrUnavailable) reach the client as
// -32603, and records are lost with a Redis that restarts without
// persistence.
package redisbroker

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpwire/mcpwire/fanout"
)

// DefaultChannel is the Redis channel the instances share unless
// Options.Channel says otherwise.
const DefaultChannel = "mcpwire:events"

// Options configure a Broker. The zero value is ready to use.
type Options struct {
	// Channel is the Redis pub/sub channel of the deployment (default
	// DefaultChannel). Deployments that share a Redis keep apart by
	// using channels of their own.
	Channel string
	// Logger receives the broker's logs: outages, their losses, restored
	// subscriptions (default slog.Default()).
	Logger *slog.Logger
}

// Stats are a Broker's counters since New.
type Stats struct {
	// Published counts the events Redis took.
	Published int64
	// PublishFailed counts the events Redis did not take (unreachable,
	// or the publish timed out): they are lost for every other instance.
	PublishFailed int64
	// Received counts the events delivered to subscriptions, from every
	// instance, this one's included.
	Received int64
	// Missed counts the events of other instances that a subscription
	// never received, seen as gaps in their sequence numbers (when the
	// next event of that instance arrives). An event another instance
	// failed to publish is missed here too.
	Missed int64
	// Malformed counts the messages on the channel that were not events
	// of a wire version this broker reads; they were dropped.
	Malformed int64
	// Restored counts the times a subscription subscribed again after
	// losing its connection to Redis.
	Restored int64
}

// Lost is what this broker's instance lost: its own events that no one
// got, and the other instances' events it did not get.
func (s Stats) Lost() int64 { return s.PublishFailed + s.Missed }

// Broker is a fanout.Broker over Redis pub/sub. Its methods are safe for
// concurrent use.
type Broker struct {
	rdb     redis.UniversalClient
	channel string
	log     *slog.Logger

	published, publishFailed, received, missed, malformed, restored atomic.Int64

	mu           sync.Mutex
	own          map[string]bool // origins of the events published through this broker
	failing      bool            // the last publish failed
	failedInARow int64           // publishes failed since the last success
}

var _ fanout.Broker = (*Broker)(nil)

// New returns a broker over rdb, which stays the caller's: close it after
// the servers using the broker are closed. opts may be nil.
func New(rdb redis.UniversalClient, opts *Options) *Broker {
	if opts == nil {
		opts = &Options{}
	}
	b := &Broker{rdb: rdb, channel: opts.Channel, log: opts.Logger, own: map[string]bool{}}
	if b.channel == "" {
		b.channel = DefaultChannel
	}
	if b.log == nil {
		b.log = slog.Default()
	}
	return b
}

// Channel returns the Redis channel the broker uses.
func (b *Broker) Channel() string { return b.channel }

// Stats returns the broker's counters.
func (b *Broker) Stats() Stats {
	return Stats{
		Published: b.published.Load(), PublishFailed: b.publishFailed.Load(),
		Received: b.received.Load(), Missed: b.missed.Load(),
		Malformed: b.malformed.Load(), Restored: b.restored.Load(),
	}
}

// maxOrigins bounds the origins a broker remembers, its own and those of
// the instances it hears (each a restart of some instance); past it the
// memory starts over, and the next gap of each origin goes unseen.
const maxOrigins = 4096

// Publish implements fanout.Broker. An error is counted in PublishFailed
// and logged once per outage, with the count of the outage's failures
// when publishing works again.
func (b *Broker) Publish(ctx context.Context, ev fanout.Event) error {
	payload, err := ev.MarshalJSON()
	if err != nil {
		return err
	}
	b.mu.Lock()
	if !b.own[ev.Origin] {
		if len(b.own) >= maxOrigins {
			clear(b.own)
		}
		b.own[ev.Origin] = true
	}
	b.mu.Unlock()
	err = b.rdb.Publish(ctx, b.channel, payload).Err()
	b.mu.Lock()
	defer b.mu.Unlock()
	if err != nil {
		b.publishFailed.Add(1)
		b.failedInARow++
		if !b.failing {
			b.failing = true
			b.log.Warn("redisbroker: publish failed; counting the notifications lost until Redis takes them again",
				"channel", b.channel, "err", err)
		}
		return err
	}
	b.published.Add(1)
	if b.failing {
		b.log.Warn("redisbroker: Redis takes publishes again; notifications were lost meanwhile",
			"channel", b.channel, "lost", b.failedInARow)
		b.failing, b.failedInARow = false, 0
	}
	return nil
}

// ownOrigin reports whether origin published through this broker.
func (b *Broker) ownOrigin(origin string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.own[origin]
}

// Subscribe implements fanout.Broker: one Redis connection per
// subscription, restored on its own after an outage.
func (b *Broker) Subscribe(deliver func(fanout.Event)) (cancel func()) {
	ps := b.rdb.Subscribe(context.Background(), b.channel)
	s := &subscription{b: b, deliver: deliver, last: map[string]uint64{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.run(ps.ChannelWithSubscriptions(redis.WithChannelSize(256)))
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			ps.Close() // closes the channel, which ends run
			<-done
		})
	}
}

// subscription is one Subscribe's reader.
type subscription struct {
	b          *Broker
	deliver    func(fanout.Event)
	subscribed bool              // a subscribe confirmation arrived already
	last       map[string]uint64 // the last sequence number seen, by origin
	warned     time.Time         // the last warning about missed events
	unsaid     int64             // missed events not yet logged
}

// missedLogEvery spaces the warnings about missed events.
const missedLogEvery = 10 * time.Second

// run reads the subscription until its channel closes.
func (s *subscription) run(ch <-chan any) {
	for m := range ch {
		switch m := m.(type) {
		case *redis.Subscription:
			if m.Kind != "subscribe" {
				continue
			}
			if s.subscribed {
				s.b.restored.Add(1)
				s.b.log.Warn("redisbroker: subscription restored; notifications published while it was down were lost (counted in Stats().Missed as other instances' next events arrive)",
					"channel", s.b.channel)
			}
			s.subscribed = true
		case *redis.Message:
			s.message(m.Payload)
		}
	}
}

// message decodes and delivers one message, noting any gap before it.
func (s *subscription) message(payload string) {
	var ev fanout.Event
	if err := ev.UnmarshalJSON([]byte(payload)); err != nil {
		if n := s.b.malformed.Add(1); n&(n-1) == 0 { // the 1st, 2nd, 4th...
			s.b.log.Warn("redisbroker: dropping a message that is not an event this version reads",
				"channel", s.b.channel, "malformed", n, "newer_version", errors.Is(err, fanout.ErrVersion), "err", err)
		}
		return
	}
	s.gap(ev)
	s.b.received.Add(1)
	s.deliver(ev)
}

// gap counts the events of ev's origin that came between the last one
// seen and ev without reaching this subscription.
func (s *subscription) gap(ev fanout.Event) {
	if ev.Seq == 0 || ev.Origin == "" || s.b.ownOrigin(ev.Origin) {
		return
	}
	last, seen := s.last[ev.Origin]
	if !seen && len(s.last) >= maxOrigins {
		clear(s.last)
	}
	if ev.Seq > last {
		s.last[ev.Origin] = ev.Seq
	}
	if !seen || ev.Seq <= last+1 {
		return // the first heard of this origin, or in order
	}
	n := int64(ev.Seq - last - 1)
	s.b.missed.Add(n)
	s.unsaid += n
	if now := time.Now(); now.Sub(s.warned) >= missedLogEvery {
		s.b.log.Warn("redisbroker: notifications of another instance were lost", "channel", s.b.channel,
			"origin", ev.Origin, "missed", s.unsaid, "total", s.b.missed.Load())
		s.warned, s.unsaid = now, 0
	}
}
