package reload

import (
	"log/slog"
	"time"
)

// Default timings of a [Watcher]; WithInterval and WithDebounce document
// them.
const (
	defaultInterval = 500 * time.Millisecond
	defaultDebounce = 100 * time.Millisecond
)

// Option configures [Watch].
type Option func(*options)

type options struct {
	interval time.Duration
	debounce time.Duration
	logger   *slog.Logger
}

func newOptions(opts []Option) options {
	o := options{interval: defaultInterval, debounce: defaultDebounce}
	for _, opt := range opts {
		opt(&o)
	}
	if o.logger == nil {
		o.logger = slog.Default()
	}
	return o
}

// WithInterval sets how often the file is polled: every 500 ms by
// default. Values of zero or less are ignored.
func WithInterval(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.interval = d
		}
	}
}

// WithDebounce sets how long changed content must stay the same before it
// is parsed: 100 ms by default. Zero (or less) parses changed content as
// soon as it is seen.
func WithDebounce(d time.Duration) Option {
	return func(o *options) { o.debounce = max(d, 0) }
}

// WithLogger sets where rejected content and read failures are logged.
// A nil logger means [slog.Default].
func WithLogger(l *slog.Logger) Option {
	return func(o *options) { o.logger = l }
}
