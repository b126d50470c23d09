// Package yamlcheck checks that a tool argument is well-formed YAML, with an
// error written for the model (or person) that produced it, as the checkers
// of package [github.com/mcpwire/mcpwire/validate] are.
//
// It is a package of its own so that package validate, which every server
// imports through probe, imports no YAML parser: a tool that takes YAML
// imports this package. (A server still links github.com/goccy/go-yaml
// through github.com/kaptinlin/jsonschema, whose compiler decodes strings
// with "contentMediaType": "application/yaml".)
//
// [YAML] is not among the checkers of validate.Formats; [RegisterFormat]
// installs it under the format name "yaml":
//
//	c := yamlcheck.RegisterFormat(validate.RegisterFormats(jsonschema.NewCompiler()))
package yamlcheck

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/kaptinlin/jsonschema"
)

// Format is the JSON Schema "format" name under which [RegisterFormat]
// installs [YAML].
const Format = "yaml"

// YAML checks that s is well-formed YAML. Every document of a multi-document
// stream is checked, a mapping may not repeat a key and an alias must name
// an anchor defined before it. The error gives the line and column.
func YAML(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("YAML text is empty")
	}
	dec := yaml.NewDecoder(strings.NewReader(s))
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("not valid YAML: %s", yaml.FormatError(err, false, false))
		}
	}
}

// RegisterFormat installs [YAML] on c as the custom format "yaml" for
// strings, as validate.RegisterFormats installs the other checkers: other
// JSON types pass the format unchecked, and the compiler reports a bad
// value only after c.SetAssertFormat(true). It returns c for chaining.
func RegisterFormat(c *jsonschema.Compiler) *jsonschema.Compiler {
	return c.RegisterFormat(Format, func(v any) bool {
		s, ok := v.(string)
		return !ok || YAML(s) == nil
	}, "string")
}
