package validate

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	json "github.com/goccy/go-json"
)

// Regexp checks that s compiles as a Go regular expression (RE2 syntax, as
// accepted by [regexp.Compile]). Perl features RE2 lacks, such as
// look-around and back-references, are refused with a hint saying so.
func Regexp(s string) error {
	if s == "" {
		return errors.New("regular expression is empty")
	}
	if _, err := regexp.Compile(s); err != nil {
		return fmt.Errorf("regular expression %q does not compile: %v (Go RE2 syntax: no look-around or back-references)", s, err)
	}
	return nil
}

// Glob checks that s is a well-formed pattern for [path.Match]: '*', '?',
// character classes in brackets and backslash escapes. It checks syntax
// only and does not expand the pattern. "**" is accepted but, as in
// path.Match, means the same as "*".
func Glob(s string) error {
	if s == "" {
		return errors.New(`glob pattern is empty; give a pattern such as "*.go" or "docs/*.md"`)
	}
	if _, err := path.Match(s, ""); err != nil {
		return fmt.Errorf("glob pattern %q is malformed (check unclosed '[' and trailing '\\'); use '*', '?', '[a-z]' and '\\' to escape", s)
	}
	return nil
}

// JSON checks that s is exactly one well-formed JSON value (RFC 8259), in
// valid UTF-8, with nothing but white space around it. Duplicate object keys
// are not refused here.
func JSON(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("JSON text is empty; give a JSON value such as {} or []")
	}
	if !utf8.ValidString(s) {
		return errors.New("JSON text is not valid UTF-8")
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return fmt.Errorf("not valid JSON: %v", err)
	}
	return nil
}
