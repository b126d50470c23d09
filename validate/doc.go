// Package validate checks the syntax of common tool arguments: paths inside
// a root directory, URLs, identifiers, semantic versions, RFC 3339 dates and
// times, Go regular expressions, glob patterns and JSON. YAML is checked by
// the subpackage [github.com/mcpwire/mcpwire/validate/yamlcheck], so that
// this package, which every server imports through probe, brings no YAML
// parser with it.
//
// Every validator returns an error whose message says what is wrong and how
// to fix it, written for the model (or person) that produced the argument,
// for example:
//
//	version "v1.2.3" must not start with "v"; send "1.2.3"
//
// Every validator rejects the empty string.
//
// [Formats] exposes the string-only validators under JSON Schema "format"
// names, and [RegisterFormats] installs them on a
// github.com/kaptinlin/jsonschema compiler.
package validate
