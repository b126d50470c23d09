// Package validate checks the syntax of common tool arguments: paths inside
// a root directory, URLs, identifiers, semantic versions, RFC 3339 dates and
// times, Go regular expressions, glob patterns, JSON and YAML.
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
//
// The YAML check uses github.com/goccy/go-yaml, which the module already
// needed through github.com/kaptinlin/jsonschema; importing it directly makes
// it a direct requirement without adding a module to the build.
package validate
