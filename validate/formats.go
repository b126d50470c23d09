package validate

import (
	"maps"
	"slices"

	"github.com/kaptinlin/jsonschema"
)

// Formats returns the string validators under JSON Schema "format" names:
//
//	identifier  Identifier
//	semver      SemVer
//	date-time   RFC3339DateTime
//	date        Date
//	time        Time
//	regex       Regexp (Go RE2 syntax, not ECMA-262)
//	glob        Glob
//	json        JSON
//	url         URL with the default schemes, http and https
//
// PathInside is left out because it needs a root, and the YAML check lives
// in package [github.com/mcpwire/mcpwire/validate/yamlcheck], which adds
// "yaml" to a map (f["yaml"] = yamlcheck.YAML) or a compiler
// (yamlcheck.RegisterFormat). Each call returns a new map that the caller
// may change.
func Formats() map[string]func(string) error {
	return map[string]func(string) error{
		"identifier": Identifier,
		"semver":     SemVer,
		"date-time":  RFC3339DateTime,
		"date":       Date,
		"time":       Time,
		"regex":      Regexp,
		"glob":       Glob,
		"json":       JSON,
		"url": func(s string) error {
			_, err := URL(s)
			return err
		},
	}
}

// RegisterFormats installs every checker of [Formats] on c as a custom
// format for strings, replacing the compiler's own "date-time", "date",
// "time" and "regex" checkers; other JSON types pass these formats
// unchecked. It returns c for chaining.
//
// JSON Schema 2020-12 treats "format" as an annotation, so the compiler
// reports bad values only after c.SetAssertFormat(true). RegisterFormats
// leaves that setting to the caller; note that with assertion on, the
// compiler also refuses formats it does not know.
func RegisterFormats(c *jsonschema.Compiler) *jsonschema.Compiler {
	formats := Formats()
	for _, name := range slices.Sorted(maps.Keys(formats)) {
		check := formats[name]
		c.RegisterFormat(name, func(v any) bool {
			s, ok := v.(string)
			return !ok || check(s) == nil
		}, "string")
	}
	return c
}
