package gateway

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

var silent = slog.New(slog.NewTextHandler(io.Discard, nil))

// localServer has a tool that reports progress and one that waits for
// its context, telling started and ended.
func localServer(started, ended chan struct{}) *mcp.Server {
	srv := mcp.NewServer(mcp.Implementation{Name: "local", Version: "1"}, &mcp.Options{Logger: silent})
	srv.MustAddTool(tool.New("steps", "Reports progress.", func(ctx context.Context, _ struct{}) (string, error) {
		for i := range 3 {
			mcp.ReportProgress(ctx, float64(i+1), 3, "")
		}
		return "done", nil
	}))
	srv.MustAddTool(tool.New("wait", "Waits to be cancelled.", func(ctx context.Context, _ struct{}) (string, error) {
		started <- struct{}{}
		<-ctx.Done()
		ended <- struct{}{}
		return "", ctx.Err()
	}))
	return srv
}

// inFlightCount is how many requests the connection still tracks.
func (l *local) inFlightCount() int {
	n := 0
	l.flight.Range(func(any, any) bool { n++; return true })
	return n
}

// A client over the in-process connection speaks 2026-07-28; a call's
// progress reaches it before the result; a cancelled call's handler sees
// its context end; nothing stays tracked once calls are over; closing
// ends a call in flight.
func TestLocal(t *testing.T) {
	started, ended := make(chan struct{}, 1), make(chan struct{}, 1)
	l := newLocal(localServer(started, ended))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, client.Conn{Conn: l}, &client.Options{Logger: silent})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if era := c.Info().Era; era != protocol.Modern {
		t.Fatalf("era %v, want modern", era)
	}

	var mu sync.Mutex
	var got []float64
	pctx := client.WithProgress(ctx, func(p protocol.ProgressNotificationParams) {
		mu.Lock()
		got = append(got, p.Progress)
		mu.Unlock()
	})
	if _, err := c.CallTool(pctx, "steps", nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(got) != 3 {
		t.Errorf("progress %v before the result, want 3 notifications", got)
	}
	mu.Unlock()

	cctx, stop := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() {
		_, err := c.CallTool(cctx, "wait", nil)
		errc <- err
	}()
	<-started
	stop()
	select {
	case <-ended:
	case <-ctx.Done():
		t.Fatal("the cancelled call's handler never saw its context end")
	}
	if err := <-errc; err == nil {
		t.Error("the cancelled call answered")
	}
	deadline := time.Now().Add(10 * time.Second)
	for l.inFlightCount() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := l.inFlightCount(); n != 0 {
		t.Errorf("%d requests still tracked after every call ended", n)
	}

	go func() {
		_, err := c.CallTool(ctx, "wait", nil)
		errc <- err
	}()
	<-started
	l.Close()
	select {
	case err := <-errc:
		if err == nil {
			t.Error("a call in flight when the connection closed answered")
		}
	case <-ctx.Done():
		t.Fatal("a call in flight when the connection closed never ended")
	}
	<-ended
}

// The URL elicitation ids awaiting completion are bounded: past
// maxURLIDs the oldest is forgotten; a taken one is gone.
func TestURLIDsBounded(t *testing.T) {
	var u urlIDs
	for i := range maxURLIDs + 10 {
		u.put(fmt.Sprint("up", i), fmt.Sprint("mine", i))
	}
	if len(u.ids) != maxURLIDs || len(u.order) != maxURLIDs {
		t.Fatalf("%d ids, %d in order; want %d", len(u.ids), len(u.order), maxURLIDs)
	}
	if _, ok := u.take("up0"); ok {
		t.Error("the oldest id was kept past the bound")
	}
	if mine, ok := u.take(fmt.Sprint("up", maxURLIDs+9)); !ok || mine != fmt.Sprint("mine", maxURLIDs+9) {
		t.Errorf("the newest: %q, %v", mine, ok)
	}
	if _, ok := u.take(fmt.Sprint("up", maxURLIDs+9)); ok {
		t.Error("an id taken twice")
	}
}
