package envconfig

import "os"

// Option changes how [Load] and [Redacted] name and read variables.
type Option func(*options)

type options struct {
	prefix string
	lookup func(string) (string, bool)
}

func newOptions(opts []Option) options {
	o := options{lookup: os.LookupEnv}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// WithPrefix puts prefix in front of every variable name, for example
// WithPrefix("APP_") makes `env:"PORT"` read APP_PORT.
func WithPrefix(prefix string) Option {
	return func(o *options) { o.prefix = prefix }
}

// WithLookup reads variables through lookup instead of [os.LookupEnv].
// lookup reports whether the variable is set, like os.LookupEnv.
// A nil lookup is ignored.
func WithLookup(lookup func(string) (string, bool)) Option {
	return func(o *options) {
		if lookup != nil {
			o.lookup = lookup
		}
	}
}
