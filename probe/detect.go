package probe

import (
	"bytes"
	"context"
	"strings"
	"unicode"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/callctx"
	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// request is what a call's _meta says about probing.
type request int

const (
	// notProbe: the key is absent or false; the call runs.
	notProbe request = iota
	// isProbe: the key is exactly true.
	isProbe
	// badFlag: the key holds something other than true or false.
	badFlag
	// nearMiss: a key differs from the probe key only in case or in
	// surrounding space; the host meant a probe, so the call must not run.
	nearMiss
	// twice: the probe key is given more than once, so readers that keep
	// the first and readers that keep the last would disagree.
	twice
	// notObject: _meta is not a JSON object, so it cannot be read at all.
	notObject
)

// IsProbe reports whether the call in progress is a permission probe: its
// params._meta holds "forge.permission_patterns" with the JSON value true,
// exactly. It is false outside a call, and false for a request that must be
// refused (a near-miss key, a bad flag value): the [Guard] and the
// handlers [Wrap] builds refuse those before anything runs.
func IsProbe(ctx context.Context) bool {
	r, _ := requestOf(ctx)
	return r == isProbe
}

// requestOf reads the probe request of the call in progress and, for a
// near miss, the key as sent. A call without _meta costs one context
// lookup; a _meta that cannot hold the key or a near miss of it costs two
// byte scans (see mayHoldKey).
func requestOf(ctx context.Context) (request, string) {
	c := callctx.From(ctx)
	if c == nil {
		return notProbe, ""
	}
	return flagIn(c.Meta())
}

// flagIn reads the probe request from a raw _meta value.
func flagIn(meta json.RawMessage) (request, string) {
	if len(meta) == 0 {
		return notProbe, ""
	}
	if jsonx.FirstByte(meta) != '{' {
		return notObject, ""
	}
	if !mayHoldKey(meta) {
		return notProbe, ""
	}
	obj, err := jsonx.ParseObject(meta)
	if err != nil {
		return notObject, ""
	}
	var (
		value json.RawMessage
		seen  int
		miss  string
	)
	obj.Each(func(key string, v json.RawMessage) {
		switch {
		case key == PermissionPatternsKey:
			value, seen = v, seen+1
		case miss == "" && isNearMiss(key):
			miss = key
		}
	})
	switch {
	case miss != "":
		return nearMiss, miss
	case seen > 1:
		return twice, ""
	}
	switch string(value) {
	case "", "false":
		return notProbe, ""
	case "true":
		return isProbe, ""
	}
	return badFlag, ""
}

// mayHoldKey reports whether meta could hold the probe key or a near miss
// of it. Every such key holds '_' as it is, since no other rune folds to
// it, and "forge" in some mix of ASCII cases, since no rune outside ASCII
// folds to f, o, r, g or e (TestFoldOrbits); only a key spelled with
// escapes may hide them, and escapes need a backslash. So a _meta without a
// backslash and without '_' costs two IndexByte scans, as a plain
// byte-for-byte search for the exact key would; one with '_' somewhere
// (snake_case keys, say) costs a scan for 'f' and one for 'F' more before
// it is parsed.
func mayHoldKey(meta []byte) bool {
	if bytes.IndexByte(meta, '\\') >= 0 {
		return true
	}
	if bytes.IndexByte(meta, '_') < 0 {
		return false
	}
	return hasForge(meta, 'f') || hasForge(meta, 'F')
}

// hasForge reports whether b holds first (f or F) followed by "orge" in any
// case.
func hasForge(b []byte, first byte) bool {
	for {
		i := bytes.IndexByte(b, first)
		if i < 0 {
			return false
		}
		b = b[i+1:]
		if len(b) >= 4 && b[0]|0x20 == 'o' && b[1]|0x20 == 'r' && b[2]|0x20 == 'g' && b[3]|0x20 == 'e' {
			return true
		}
	}
}

// isNearMiss reports whether key, as decoded, is not the probe key but
// differs from it only in case (Unicode simple folding, as
// strings.EqualFold) or in white space or invisible format characters
// (such as U+200B or U+FEFF) before or after it.
func isNearMiss(key string) bool {
	return key != PermissionPatternsKey &&
		strings.EqualFold(strings.TrimFunc(key, invisible), PermissionPatternsKey)
}

// invisible reports whether r is white space or a format character: the
// runes a reader of a log would not see around a key.
func invisible(r rune) bool {
	return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r)
}
