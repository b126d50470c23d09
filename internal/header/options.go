package header

// Option configures [CheckInputSchema] and [Annotations].
type Option func(*config)

type config struct {
	sensitive sensitiveSet
}

// WithSensitiveNames replaces the default sensitive-name list
// ([DefaultSensitiveNames]). An empty list disables the sensitive-name rule.
func WithSensitiveNames(names []string) Option {
	return func(c *config) { c.sensitive = newSensitiveSet(names) }
}

func newConfig(opts []Option) *config {
	c := &config{sensitive: newSensitiveSet(defaultSensitive)}
	for _, o := range opts {
		o(c)
	}
	return c
}
