package yamlcheck

import (
	"strings"
	"testing"

	"github.com/kaptinlin/jsonschema"
	"github.com/mcpwire/mcpwire/validate"
)

func TestYAML(t *testing.T) {
	for _, tt := range []struct{ in, errPart string }{
		{"a: 1\nb: [x, y]", ""}, {"- a\n- b", ""}, {"{a: 1}", ""}, {"just a string", ""},
		{"---\na: 1\n---\nb: 2\n", ""}, {"base: &b {x: 1}\nderived: *b", ""}, {"名前: 値", ""},
		{"", "empty"}, {" \n ", "empty"},
		{"a: 1\na: 2", `mapping key "a" already defined`},
		{"a: [1, 2", "not valid YAML: [1:4]"},
		{"a: b: c", "not valid YAML"},
		{"---\na: 1\n---\nb: [", "[4:4]"},
		{"*undefined", `could not find alias "undefined"`},
		{"a:\n  - 1\n - 2", "not valid YAML"},
	} {
		t.Run(tt.in, func(t *testing.T) {
			err := YAML(tt.in)
			if tt.errPart == "" {
				if err != nil {
					t.Fatalf("YAML(%q) = %v; want valid", tt.in, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.errPart) {
				t.Fatalf("YAML(%q) = %v; want error containing %q", tt.in, err, tt.errPart)
			}
		})
	}
}

func TestRegisterFormatThroughCompiler(t *testing.T) {
	schemaJSON := []byte(`{
		"type": "object",
		"properties": {
			"doc": {"type": "string", "format": "yaml"},
			"count": {"type": "integer", "format": "yaml"},
			"version": {"type": "string", "format": "semver"}
		}
	}`)
	tests := []struct {
		name     string
		assert   bool
		instance map[string]any
		valid    bool
	}{
		{"good YAML", true, map[string]any{"doc": "a: 1\nb: [x, y]"}, true},
		{"bad YAML", true, map[string]any{"doc": "a: [1"}, false},
		{"repeated key", true, map[string]any{"doc": "a: 1\na: 2"}, false},
		{"non-string skips string format", true, map[string]any{"count": 7}, true},
		{"annotation only without assertion", false, map[string]any{"doc": "a: [1"}, true},
		{"validate's formats still apply", true, map[string]any{"doc": "a: 1", "version": "v1"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := RegisterFormat(validate.RegisterFormats(jsonschema.NewCompiler())).SetAssertFormat(tt.assert)
			schema, err := c.Compile(schemaJSON)
			if err != nil {
				t.Fatal(err)
			}
			if got := schema.Validate(tt.instance).IsValid(); got != tt.valid {
				t.Errorf("valid = %v, want %v", got, tt.valid)
			}
		})
	}
}

// TestNotInValidateFormats pins the split: validate.Formats leaves "yaml" to
// this package, which adds it on request.
func TestNotInValidateFormats(t *testing.T) {
	f := validate.Formats()
	if _, ok := f[Format]; ok {
		t.Fatalf("validate.Formats() has %q; it belongs to yamlcheck", Format)
	}
	f[Format] = YAML
	if err := f[Format]("a: [1"); err == nil {
		t.Fatal("YAML accepted malformed YAML through the format map")
	}
}
