package redisbroker_test

import (
	"context"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/fanout"
	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/redisbroker"
)

// inbox collects what a subscription delivers, without ever blocking.
type inbox chan fanout.Event

func (in inbox) deliver(ev fanout.Event) {
	select {
	case in <- ev:
	default:
		panic("test inbox full")
	}
}

// publisher publishes numbered events of one origin, as a server does.
type publisher struct {
	t      *testing.T
	b      *redisbroker.Broker
	origin string
	seq    uint64
}

func (p *publisher) publish(uri string) error {
	p.seq++
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return p.b.Publish(ctx, fanout.Event{Kind: fanout.ResourceUpdated, URI: uri, Origin: p.origin, Seq: p.seq})
}

// untilHeard publishes "probe" events until every inbox received one,
// since a subscription hears nothing published before Redis took it (or,
// after an outage, before it was restored); then it drains them.
func (p *publisher) untilHeard(ins ...inbox) {
	p.t.Helper()
	heard := make([]bool, len(ins))
	deadline := time.Now().Add(20 * time.Second)
	for !all(heard) {
		if time.Now().After(deadline) {
			p.t.Fatal("a subscription heard nothing for 20s")
		}
		p.publish("test://probe")
		time.Sleep(20 * time.Millisecond)
		for i, in := range ins {
			heard[i] = heard[i] || len(in) > 0
		}
	}
	time.Sleep(100 * time.Millisecond)
	for _, in := range ins {
		for len(in) > 0 {
			<-in
		}
	}
}

func all(bs []bool) bool {
	for _, b := range bs {
		if !b {
			return false
		}
	}
	return true
}

func next(t *testing.T, in inbox) fanout.Event {
	t.Helper()
	select {
	case ev := <-in:
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("no event within 5s")
		return fanout.Event{}
	}
}

func TestFanoutBetweenBrokers(t *testing.T) {
	r := startRedis(t)
	before := leakcheck.Snapshot()
	log, _ := testLogger(t, "brokers")
	a := redisbroker.New(r.client(), &redisbroker.Options{Logger: log})
	b := redisbroker.New(r.client(), &redisbroker.Options{Logger: log})
	other := redisbroker.New(r.client(), &redisbroker.Options{Channel: "elsewhere", Logger: log})
	if a.Channel() != redisbroker.DefaultChannel || other.Channel() != "elsewhere" {
		t.Fatalf("channels %q, %q", a.Channel(), other.Channel())
	}
	inB, inA, inOther := make(inbox, 64), make(inbox, 64), make(inbox, 64)
	cancelB := b.Subscribe(inB.deliver)
	cancelA := a.Subscribe(inA.deliver)
	cancelOther := other.Subscribe(inOther.deliver)
	p := &publisher{t: t, b: a, origin: "A"}
	p.untilHeard(inA, inB)

	p.publish("test://1")
	p.publish("test://2")
	for _, want := range []string{"test://1", "test://2"} {
		if ev := next(t, inB); ev.URI != want || ev.Origin != "A" || ev.Kind != fanout.ResourceUpdated {
			t.Errorf("b got %+v, want %s", ev, want)
		}
		if ev := next(t, inA); ev.URI != want { // a's own events reach it too
			t.Errorf("a got %+v, want %s", ev, want)
		}
	}
	// A gap in a's own numbering is not a loss a's subscription counts.
	p.seq += 10
	p.publish("test://3")
	next(t, inA)
	next(t, inB)
	if s := a.Stats(); s.Missed != 0 || s.PublishFailed != 0 {
		t.Errorf("a: %+v", s)
	}
	if s := b.Stats(); s.Missed != 10 || s.Received < 3 {
		t.Errorf("b: %+v, want 10 missed", s)
	}

	// Messages that are not events of this version are dropped and counted.
	rdb := r.client()
	rdb.Publish(context.Background(), redisbroker.DefaultChannel, "junk")
	rdb.Publish(context.Background(), redisbroker.DefaultChannel, `{"v":2,"kind":"tools/list_changed","origin":"X"}`)
	p.publish("test://4")
	if ev := next(t, inB); ev.URI != "test://4" {
		t.Errorf("b got %+v", ev)
	}
	if s := b.Stats(); s.Malformed != 2 {
		t.Errorf("b: %+v, want 2 malformed", s)
	}
	select {
	case ev := <-inOther:
		t.Errorf("another channel heard %+v", ev)
	default:
	}

	cancelA()
	cancelB()
	cancelB()
	cancelOther()
	p.publish("test://after")
	time.Sleep(100 * time.Millisecond)
	if len(inB) != 0 {
		t.Errorf("delivered after cancel: %+v", <-inB)
	}
	r.kill() // the clients' pools hold connections until then
	leakcheck.Check(t, before)
}

// Redis crashes and comes back on the same port: the publishes of the
// outage fail and are counted, the subscription comes back on its own,
// and the receiver counts what it missed.
func TestRedisRestart(t *testing.T) {
	r := startRedis(t)
	logA, logsA := testLogger(t, "a")
	logB, logsB := testLogger(t, "b")
	a := redisbroker.New(r.client(), &redisbroker.Options{Logger: logA})
	b := redisbroker.New(r.client(), &redisbroker.Options{Logger: logB})
	in := make(inbox, 64)
	defer b.Subscribe(in.deliver)()
	p := &publisher{t: t, b: a, origin: "A"}
	p.untilHeard(in)

	r.kill()
	const outage = 4
	for i := range outage {
		if err := p.publish("test://during"); err == nil {
			t.Fatalf("publish %d during the outage succeeded", i)
		}
	}
	if s := a.Stats(); s.PublishFailed != outage {
		t.Fatalf("a: %+v, want %d failed", s, outage)
	}
	mustContain(t, logsA, "publish failed")

	r.start()
	p.untilHeard(in)
	p.publish("test://after")
	if ev := next(t, in); ev.URI != "test://after" {
		t.Errorf("after the restart: %+v", ev)
	}
	sa, sb := a.Stats(), b.Stats()
	if sa.PublishFailed != outage || sb.Restored < 1 || sb.Missed < outage || sb.Lost() != sb.Missed {
		t.Errorf("a: %+v\nb: %+v", sa, sb)
	}
	mustContain(t, logsA, "Redis takes publishes again")
	mustContain(t, logsA, "lost=4")
	mustContain(t, logsB, "subscription restored")
	mustContain(t, logsB, "notifications of another instance were lost")
}
