package reload

import (
	"crypto/sha256"
	"fmt"
	"os"
	"time"
)

// poll looks at the file once and returns how long to wait before the next
// poll. Unless force is set, it skips reading when the file, its size and
// its modification time are unchanged since the last read and that time
// was old enough to trust.
func (w *Watcher[T]) poll(force bool) (time.Duration, error) {
	w.checkMu.Lock()
	defer w.checkMu.Unlock()
	if w.stopped {
		return 0, ErrStopped
	}
	fi, err := os.Stat(w.path)
	if err != nil {
		return w.opts.interval, w.readFailed(err)
	}
	if force || !w.statTrusted || w.statChanged(fi) {
		data, err := w.readFile(w.path)
		if err != nil {
			return w.opts.interval, w.readFailed(err)
		}
		w.noteRead(fi)
		w.lastErr = ""
		w.see(data)
	}
	if w.pending == nil {
		return w.opts.interval, nil
	}
	return w.settle()
}

// see compares freshly read content with what is applied, rejected or
// pending, and starts or restarts the debounce window when it is new.
func (w *Watcher[T]) see(data []byte) {
	sum := sha256.Sum256(data)
	switch {
	case sum == w.applied, w.hasRejected && sum == w.rejected:
		w.pending = nil
	case w.pending == nil || w.pending.hash != sum:
		w.pending = &pendingChange{hash: sum, data: data, since: w.now()}
	}
}

// settle applies the pending change once it has been stable for the
// debounce window, and otherwise returns the time left to wait.
func (w *Watcher[T]) settle() (time.Duration, error) {
	if left := w.opts.debounce - w.now().Sub(w.pending.since); left > 0 {
		return min(left, w.opts.interval), nil
	}
	p := w.pending
	w.pending = nil
	v, err := w.parse(p.data)
	if err != nil {
		w.rejected, w.hasRejected = p.hash, true
		w.opts.logger.Warn("reload: new config rejected; keeping the last good one",
			"path", w.path, "err", err)
		return w.opts.interval, fmt.Errorf("reload: parse %s: %w", w.path, err)
	}
	w.applied, w.hasRejected = p.hash, false
	w.mu.Lock()
	w.current = v
	w.mu.Unlock()
	w.opts.logger.Info("reload: config reloaded", "path", w.path)
	if w.onChange != nil {
		w.onChange(v)
	}
	return w.opts.interval, nil
}

// noteRead records the stat of the content just read, and whether it is
// old enough that an unchanged stat proves unchanged content.
func (w *Watcher[T]) noteRead(fi os.FileInfo) {
	w.stat = fi
	w.statTrusted = time.Since(fi.ModTime()) > racyWindow
}

// readFailed logs a stat or read failure once until the next success or a
// different failure, and returns it wrapped.
func (w *Watcher[T]) readFailed(err error) error {
	if msg := err.Error(); msg != w.lastErr {
		w.lastErr = msg
		w.opts.logger.Warn("reload: cannot read config; keeping the last good one",
			"path", w.path, "err", err)
	}
	return fmt.Errorf("reload: %w", err)
}

// statChanged reports whether fi differs from the stat of the last read:
// another file (as after a save by rename), another size or another
// modification time.
func (w *Watcher[T]) statChanged(fi os.FileInfo) bool {
	return w.stat == nil || !os.SameFile(w.stat, fi) ||
		fi.Size() != w.stat.Size() || !fi.ModTime().Equal(w.stat.ModTime())
}
