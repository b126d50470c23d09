package header

import (
	"strings"
	"unicode"
)

// defaultSensitive is the built-in list behind [DefaultSensitiveNames].
var defaultSensitive = []string{
	"password", "passwd", "secret", "token", "api_key", "apikey",
	"authorization", "auth", "cookie", "credential", "credentials",
	"private_key", "session",
}

// DefaultSensitiveNames returns (a copy of) the names that are never
// mirrored into headers unless replaced with [WithSensitiveNames].
func DefaultSensitiveNames() []string {
	return append([]string(nil), defaultSensitive...)
}

// sensitiveSet matches property and header names against a list of
// sensitive words.
//
// Matching is case-insensitive and ignores '-' and '_'. A name matches when
// the whole name, or any run of consecutive words in it, equals a listed
// entry; words are split at '-', '_', '.', spaces and lower-to-upper case
// changes. So "access_token", "X-Auth-Token", "apiKey", "sessionId" and
// "clientSecret" match, while "author" or "tokenizer" do not.
type sensitiveSet map[string]struct{}

func newSensitiveSet(names []string) sensitiveSet {
	set := make(sensitiveSet, len(names))
	for _, n := range names {
		if k := normalize(n); k != "" {
			set[k] = struct{}{}
		}
	}
	return set
}

// normalize lower-cases s and drops '-' and '_'.
func normalize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

func (set sensitiveSet) matches(name string) bool {
	if len(set) == 0 {
		return false
	}
	if _, ok := set[normalize(name)]; ok {
		return true
	}
	words := splitWords(name)
	for i := range words {
		run := ""
		for j := i; j < len(words); j++ {
			run += words[j]
			if _, ok := set[run]; ok {
				return true
			}
		}
	}
	return false
}

// splitWords splits a name into lower-case words at separators and at
// lower-to-upper case changes ("apiKey" → "api", "key").
func splitWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range name {
		switch {
		case r == '-' || r == '_' || r == '.' || unicode.IsSpace(r):
			flush()
		case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return words
}
