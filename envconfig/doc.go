// Package envconfig fills a typed configuration struct from environment
// variables.
//
// A field takes part when it carries an `env:"NAME"` tag. The variable read
// is the prefix given with [WithPrefix], then the prefixes of any enclosing
// nested structs, then NAME. Other tags refine the field:
//
//	default:"..."   value used when the variable is unset or empty
//	required:"true" the variable (or a default) must provide a value
//	secret:"true"   the value never appears in errors or in [Redacted]
//	sep:";"         separator for list fields (default ",")
//
// Supported field types are string, bool, every int and uint kind (range
// checked, base 10), float32 and float64, [time.Duration] (parsed with
// [time.ParseDuration]), [url.URL] and *url.URL (must be absolute, with a
// scheme), any type whose pointer implements [encoding.TextUnmarshaler]
// (such as [time.Time] or [net.IP]), slices of any of these (split on sep,
// each item trimmed, empty items dropped) and pointers to any of these
// (allocated only when a value is present).
//
// A struct field without an `env` tag that is not one of the types above is
// a nested struct: its fields are loaded too, with its `envPrefix:"DB_"` tag
// appended to the prefix. Exported fields with neither tag, and fields tagged
// `env:"-"`, are left alone.
//
// A variable set to the empty string counts as unset, so its default applies
// and a required field without a default is reported missing. When neither
// the variable nor a default gives a value, the field keeps whatever value it
// already had, so callers may pre-fill the struct.
//
// [Load] does not stop at the first problem: it returns one [*Error] listing
// every missing or malformed variable, in field order. Secret values are
// never written into that error; a malformed secret is reported as
// "invalid value (redacted)".
//
// Load reads variables through a lookup function, [os.LookupEnv] unless
// [WithLookup] supplies another, so tests never need the real environment.
package envconfig
