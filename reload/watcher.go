package reload

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// ErrStopped is returned by [Watcher.Check] once the watcher has stopped.
var ErrStopped = errors.New("reload: watcher stopped")

// racyWindow is how recent a modification time may be before the watcher
// stops trusting size and time alone: writes that close together can leave
// both unchanged on file systems with coarse timestamps.
const racyWindow = 2 * time.Second

// Watcher holds the current value parsed from a file and reloads it when
// the file's content changes. Its methods are safe for concurrent use.
type Watcher[T any] struct {
	path     string
	parse    func([]byte) (T, error)
	onChange func(T)
	opts     options
	now      func() time.Time             // debounce clock
	readFile func(string) ([]byte, error) // file reader

	mu      sync.RWMutex // guards current
	current T

	// checkMu serializes checks, and with them the onChange calls; it
	// guards the fields below.
	checkMu     sync.Mutex
	stopped     bool
	stat        os.FileInfo // stat at the last read
	statTrusted bool        // stat was old enough to skip unchanged reads
	applied     [sha256.Size]byte
	rejected    [sha256.Size]byte
	hasRejected bool
	pending     *pendingChange
	lastErr     string // last stat or read error logged

	cancel context.CancelFunc
	done   chan struct{}
}

// pendingChange is changed content waiting out the debounce window.
type pendingChange struct {
	hash  [sha256.Size]byte
	data  []byte
	since time.Time
}

// Watch loads path with parse and then keeps the value current until ctx
// is done or [Watcher.Stop] is called. It returns an error, and starts
// nothing, when the first load fails.
//
// onChange (which may be nil) is called with each new value after a
// successful reload, not for the first load; use [Watcher.Current] for
// that. Calls are serialized and come from the watcher's goroutine or from
// a [Watcher.Check] caller. onChange must not call Stop or Check, and
// should return quickly, since polling waits for it.
func Watch[T any](ctx context.Context, path string, parse func([]byte) (T, error), onChange func(T), opts ...Option) (*Watcher[T], error) {
	w := &Watcher[T]{
		path:     path,
		parse:    parse,
		onChange: onChange,
		opts:     newOptions(opts),
		now:      time.Now,
		readFile: os.ReadFile,
		done:     make(chan struct{}),
	}
	if err := w.load(); err != nil {
		return nil, err
	}
	ctx, w.cancel = context.WithCancel(ctx)
	go w.run(ctx)
	return w, nil
}

// load performs the first, mandatory load.
func (w *Watcher[T]) load() error {
	fi, err := os.Stat(w.path)
	if err != nil {
		return fmt.Errorf("reload: %w", err)
	}
	data, err := w.readFile(w.path)
	if err != nil {
		return fmt.Errorf("reload: %w", err)
	}
	v, err := w.parse(data)
	if err != nil {
		return fmt.Errorf("reload: parse %s: %w", w.path, err)
	}
	w.noteRead(fi)
	w.applied = sha256.Sum256(data)
	w.current = v
	return nil
}

// Current returns the last value that parsed successfully. The value is
// shared: callers must not modify what it points to.
func (w *Watcher[T]) Current() T {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.current
}

// Check polls the file now, reading it whatever its size and modification
// time say. Changed content is applied if it has been stable for the
// debounce window (at once when the window is zero); otherwise the next
// poll applies it. Check returns the error that kept a change from being
// applied (a failed read, or a parse failure), nil when there was none,
// and [ErrStopped] after the watcher stopped.
func (w *Watcher[T]) Check() error {
	_, err := w.poll(true)
	return err
}

// Stop ends the polling goroutine and waits for it, and for any onChange
// call in progress, to finish. No onChange call starts after Stop returns.
// Stop is idempotent and safe to call from several goroutines.
func (w *Watcher[T]) Stop() {
	w.cancel()
	<-w.done
}

// Done returns a channel that is closed once the watcher has stopped,
// through [Watcher.Stop] or the end of the context given to [Watch].
func (w *Watcher[T]) Done() <-chan struct{} { return w.done }

// run polls until ctx is done, then marks the watcher stopped.
func (w *Watcher[T]) run(ctx context.Context) {
	defer close(w.done)
	defer func() {
		w.checkMu.Lock()
		w.stopped = true
		w.checkMu.Unlock()
	}()
	timer := time.NewTimer(w.opts.interval)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		next, _ := w.poll(false)
		timer.Reset(next)
	}
}
