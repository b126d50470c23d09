package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/mcp"
)

// With -watch-interval the watched resource changes on its own: a
// subscribed session hears of it, and a read shows a later version.
func TestWatchedResourceChangesOnATimer(t *testing.T) {
	s := startRaw(t, "-watch-interval", "20ms")
	s.initialize()
	s.send(`{"jsonrpc":"2.0","id":"s","method":"resources/subscribe","params":{"uri":"test://watched-resource"}}`)
	if line := s.next(); !strings.Contains(line, `"id":"s","result":{}`) {
		t.Fatalf("subscribe: %s", line)
	}
	for range 2 {
		if line := s.next(); line != `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"test://watched-resource"}}`+"\n" {
			t.Fatalf("want notifications/resources/updated, got %s", line)
		}
	}
	s.send(`{"jsonrpc":"2.0","id":"r","method":"resources/read","params":{"uri":"test://watched-resource"}}`)
	for {
		line := s.next()
		if strings.Contains(line, `"id":"r"`) {
			if strings.Contains(line, "version 1.") || !strings.Contains(line, "This is the watched resource, version ") {
				t.Errorf("read after two changes: %s", line)
			}
			break
		}
	}
}

// The timer stops with its context; with interval 0 there is none.
func TestWatchedRunStops(t *testing.T) {
	defer leakcheck.Check(t, leakcheck.Snapshot())
	w := newWatched(mcp.NewServer(mcp.Implementation{Name: "t"}, &mcp.Options{Logger: quietLogger()}))
	done := make(chan struct{})
	go func() { w.run(context.Background(), 0); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("run with interval 0 did not return")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done = make(chan struct{})
	go func() { w.run(ctx, time.Millisecond); close(done) }()
	deadline := time.Now().Add(5 * time.Second)
	for w.version.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-done
	if v := w.version.Load(); v < 3 {
		t.Errorf("version %d after the timer ran, want at least 3", v)
	}
}
