package reload

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/testsupport/syncbuf"
)

// parseOK accepts content of the form "ok:<value>" and returns <value>.
func parseOK(data []byte) (string, error) {
	s, ok := strings.CutPrefix(string(data), "ok:")
	if !ok {
		return "", fmt.Errorf("content %q lacks the ok: prefix", data)
	}
	return s, nil
}

// recorder collects onChange calls.
type recorder struct {
	mu   sync.Mutex
	vals []string
}

func (r *recorder) onChange(v string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.vals = append(r.vals, v)
}

func (r *recorder) calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.vals...)
}

func testLogger(b *syncbuf.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// replaceFile swaps in new content by rename, as many editors save.
func replaceFile(t *testing.T, path, content string) {
	t.Helper()
	tmp := path + ".tmp"
	writeFile(t, tmp, content)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func newFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.txt")
	writeFile(t, path, content)
	return path
}

// waitFor polls cond until it holds or a generous deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// waitGoroutines waits until no more than n goroutines run.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("goroutine leak: %d running, want <= %d\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(time.Millisecond)
	}
}

// fakeClock drives the debounce window by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// manual starts a watcher whose goroutine never polls on its own, so only
// Check drives it; the debounce window runs on a fake clock.
func manual(t *testing.T, path string, debounce time.Duration, logs *syncbuf.Buffer) (*Watcher[string], *recorder, *fakeClock) {
	t.Helper()
	rec := &recorder{}
	if logs == nil {
		logs = &syncbuf.Buffer{}
	}
	w, err := Watch(context.Background(), path, parseOK, rec.onChange,
		WithInterval(time.Hour), WithDebounce(debounce), WithLogger(testLogger(logs)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	clock := &fakeClock{t: time.Unix(1_000_000, 0)}
	w.checkMu.Lock()
	w.now = clock.now
	w.checkMu.Unlock()
	return w, rec, clock
}

func check(t *testing.T, w *Watcher[string]) {
	t.Helper()
	if err := w.Check(); err != nil {
		t.Fatalf("Check: %v", err)
	}
}

func TestFirstLoad(t *testing.T) {
	path := newFile(t, "ok:one")
	w, rec, _ := manual(t, path, 0, nil)
	if got := w.Current(); got != "one" {
		t.Errorf("Current = %q, want one", got)
	}
	check(t, w)
	if calls := rec.calls(); len(calls) != 0 {
		t.Errorf("onChange called for the first load: %v", calls)
	}
}

func TestFirstLoadFailure(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, path, errPart string
	}{
		{"missing file", filepath.Join(dir, "absent"), "no such file"},
		{"bad content", newFile(t, "garbage"), "lacks the ok: prefix"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			w, err := Watch(context.Background(), tt.path, parseOK, nil)
			if err == nil || w != nil || !strings.Contains(err.Error(), tt.errPart) {
				t.Fatalf("Watch = %v, %v; want error containing %q", w, err, tt.errPart)
			}
			waitGoroutines(t, before)
		})
	}
}

func TestIdenticalBytesDoNotReload(t *testing.T) {
	path := newFile(t, "ok:same")
	w, rec, clock := manual(t, path, 0, nil)
	writeFile(t, path, "ok:same")
	check(t, w)
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, future, future); err != nil {
		t.Fatal(err)
	}
	check(t, w)
	if _, err := w.poll(false); err != nil {
		t.Fatal(err)
	}
	clock.advance(time.Minute)
	check(t, w)
	if calls := rec.calls(); len(calls) != 0 {
		t.Errorf("identical bytes caused reloads: %v", calls)
	}
}

func TestChangedBytesReloadOnce(t *testing.T) {
	for _, debounce := range []time.Duration{0, 100 * time.Millisecond} {
		t.Run(fmt.Sprint("debounce ", debounce), func(t *testing.T) {
			path := newFile(t, "ok:old")
			w, rec, clock := manual(t, path, debounce, nil)
			writeFile(t, path, "ok:new")
			check(t, w)
			if debounce > 0 {
				if calls := rec.calls(); len(calls) != 0 {
					t.Fatalf("reloaded before the debounce window passed: %v", calls)
				}
				clock.advance(debounce)
				check(t, w)
			}
			for range 3 {
				check(t, w)
				clock.advance(time.Second)
			}
			if got, want := rec.calls(), []string{"new"}; !slices.Equal(got, want) {
				t.Errorf("onChange calls = %q, want %q", got, want)
			}
			if got := w.Current(); got != "new" {
				t.Errorf("Current = %q, want new", got)
			}
		})
	}
}

func TestBrokenFileKeepsLastGood(t *testing.T) {
	path := newFile(t, "ok:good")
	logs := &syncbuf.Buffer{}
	w, rec, _ := manual(t, path, 0, logs)
	writeFile(t, path, "broken")
	err := w.Check()
	if err == nil || !strings.Contains(err.Error(), "lacks the ok: prefix") {
		t.Fatalf("Check = %v, want the parse error", err)
	}
	check(t, w) // same bad content: neither an error nor a second log line
	if got := w.Current(); got != "good" {
		t.Errorf("Current = %q, want the last good value", got)
	}
	if calls := rec.calls(); len(calls) != 0 {
		t.Errorf("onChange called for bad content: %v", calls)
	}
	if n := strings.Count(logs.String(), "new config rejected"); n != 1 {
		t.Errorf("rejection logged %d times, want once:\n%s", n, logs)
	}
	if !strings.Contains(logs.String(), "lacks the ok: prefix") {
		t.Errorf("log does not say why:\n%s", logs)
	}

	writeFile(t, path, "ok:fixed")
	check(t, w)
	if got, want := rec.calls(), []string{"fixed"}; !slices.Equal(got, want) {
		t.Errorf("onChange calls = %q, want %q", got, want)
	}
}

func TestMissingFileKeepsLastGood(t *testing.T) {
	path := newFile(t, "ok:good")
	logs := &syncbuf.Buffer{}
	w, rec, _ := manual(t, path, 0, logs)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := w.Check(); err == nil {
			t.Fatal("Check of a missing file returned nil")
		}
	}
	if n := strings.Count(logs.String(), "cannot read config"); n != 1 {
		t.Errorf("read failure logged %d times, want once:\n%s", n, logs)
	}
	writeFile(t, path, "ok:back")
	check(t, w)
	if got, want := rec.calls(), []string{"back"}; !slices.Equal(got, want) || w.Current() != "back" {
		t.Errorf("onChange calls = %q, Current = %q; want %q", got, w.Current(), want)
	}
}

func TestBurstReloadsOnceWithFinalContent(t *testing.T) {
	path := newFile(t, "ok:v0")
	w, rec, clock := manual(t, path, 100*time.Millisecond, nil)
	for i := 1; i <= 10; i++ {
		writeFile(t, path, fmt.Sprintf("ok:v%d", i))
		check(t, w)
		clock.advance(30 * time.Millisecond) // each write lands inside the window
	}
	writeFile(t, path, "broken mid-write")
	check(t, w)
	writeFile(t, path, "ok:final")
	check(t, w)
	clock.advance(99 * time.Millisecond)
	check(t, w)
	if calls := rec.calls(); len(calls) != 0 {
		t.Fatalf("reloaded inside the debounce window: %v", calls)
	}
	clock.advance(time.Millisecond)
	check(t, w)
	check(t, w)
	if got, want := rec.calls(), []string{"final"}; !slices.Equal(got, want) {
		t.Errorf("onChange calls = %q, want %q", got, want)
	}
}

func TestStatGateSkipsUnchangedOldFile(t *testing.T) {
	path := newFile(t, "ok:v1")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	w, _, _ := manual(t, path, 0, nil)
	var reads int
	w.checkMu.Lock()
	w.readFile = func(p string) ([]byte, error) { reads++; return os.ReadFile(p) }
	w.checkMu.Unlock()

	for range 3 {
		if _, err := w.poll(false); err != nil {
			t.Fatal(err)
		}
	}
	if reads != 0 {
		t.Errorf("unchanged old file read %d times by polls, want 0", reads)
	}
	check(t, w)
	if reads != 1 {
		t.Errorf("Check read the file %d times, want 1", reads)
	}
	writeFile(t, path, "ok:v2") // new size and time
	if _, err := w.poll(false); err != nil {
		t.Fatal(err)
	}
	if reads != 2 || w.Current() != "v2" {
		t.Errorf("after a change: reads = %d, Current = %q; want 2, v2", reads, w.Current())
	}
}

func TestLivePolling(t *testing.T) {
	path := newFile(t, "ok:start")
	rec := &recorder{}
	w, err := Watch(context.Background(), path, parseOK, rec.onChange,
		WithInterval(time.Millisecond), WithDebounce(5*time.Millisecond),
		WithLogger(testLogger(&syncbuf.Buffer{})))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	replaceFile(t, path, "ok:next")
	waitFor(t, "the reload", func() bool { return len(rec.calls()) > 0 })
	if got, want := rec.calls(), []string{"next"}; !slices.Equal(got, want) || w.Current() != "next" {
		t.Errorf("onChange calls = %q, Current = %q; want %q", got, w.Current(), want)
	}
}

func TestLiveBurst(t *testing.T) {
	path := newFile(t, "ok:v0")
	rec := &recorder{}
	w, err := Watch(context.Background(), path, parseOK, rec.onChange,
		WithInterval(time.Millisecond), WithDebounce(time.Second),
		WithLogger(testLogger(&syncbuf.Buffer{})))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	for i := 1; i <= 20; i++ {
		writeFile(t, path, fmt.Sprintf("ok:v%d", i))
	}
	waitFor(t, "the reload", func() bool { return len(rec.calls()) > 0 })
	if got, want := rec.calls(), []string{"v20"}; !slices.Equal(got, want) {
		t.Errorf("onChange calls = %q, want %q", got, want)
	}
}

func TestStopEndsEverything(t *testing.T) {
	before := runtime.NumGoroutine()
	path := newFile(t, "ok:v1")
	rec := &recorder{}
	w, err := Watch(context.Background(), path, parseOK, rec.onChange,
		WithInterval(time.Millisecond), WithDebounce(0), WithLogger(testLogger(&syncbuf.Buffer{})))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(w.Stop)
	}
	wg.Wait()
	w.Stop()
	waitGoroutines(t, before)

	writeFile(t, path, "ok:v2")
	if err := w.Check(); !errors.Is(err, ErrStopped) {
		t.Errorf("Check after Stop = %v, want ErrStopped", err)
	}
	if calls := rec.calls(); len(calls) != 0 {
		t.Errorf("onChange ran after Stop: %v", calls)
	}
	if got := w.Current(); got != "v1" {
		t.Errorf("Current after Stop = %q, want v1", got)
	}
}

func TestContextCancelStops(t *testing.T) {
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	path := newFile(t, "ok:v1")
	w, err := Watch(ctx, path, parseOK, nil, WithInterval(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	<-w.Done()
	waitGoroutines(t, before)
	if err := w.Check(); !errors.Is(err, ErrStopped) {
		t.Errorf("Check after cancel = %v, want ErrStopped", err)
	}
	w.Stop() // still fine after the context ended it
}

func TestStopWaitsForRunningCallback(t *testing.T) {
	path := newFile(t, "ok:v1")
	entered, release := make(chan struct{}), make(chan struct{})
	var finished bool
	var mu sync.Mutex
	w, err := Watch(context.Background(), path, parseOK, func(string) {
		close(entered)
		<-release
		mu.Lock()
		finished = true
		mu.Unlock()
	}, WithInterval(time.Millisecond), WithDebounce(0), WithLogger(testLogger(&syncbuf.Buffer{})))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, "ok:v2")
	<-entered
	stopped := make(chan struct{})
	go func() { w.Stop(); close(stopped) }()
	// A correct Stop can never return here, so this wait cannot flake; a
	// broken one is caught whenever it returns within the wait.
	select {
	case <-stopped:
		t.Error("Stop returned while onChange was still running")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	<-stopped
	mu.Lock()
	defer mu.Unlock()
	if !finished {
		t.Error("Stop returned before onChange finished")
	}
}
