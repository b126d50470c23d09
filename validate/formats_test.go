package validate

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kaptinlin/jsonschema"
)

func TestFormatsNamesAndCheckers(t *testing.T) {
	tests := []struct{ name, good, bad string }{
		{"identifier", "ok_name", "not-ok"},
		{"semver", "1.2.3-rc.1", "01.2.3"},
		{"date-time", "2024-05-01T13:45:00Z", "2024-13-01T00:00:00Z"},
		{"date", "2024-02-29", "2023-02-29"},
		{"time", "13:45:00Z", "13:45:00"},
		{"regex", "^a+$", "(a"},
		{"glob", "*.go", "["},
		{"json", `{"a":1}`, "{a:1}"},
		{"url", "https://example.com", "javascript:alert(1)"},
	}
	f := Formats()
	var names []string
	for _, tt := range tests {
		names = append(names, tt.name)
	}
	if diff := cmp.Diff(slices.Sorted(slices.Values(names)), slices.Sorted(maps.Keys(f))); diff != "" {
		t.Fatalf("format names (-want +got):\n%s", diff)
	}
	for _, tt := range tests {
		if err := f[tt.name](tt.good); err != nil {
			t.Errorf("%s(%q) = %v; want valid", tt.name, tt.good, err)
		}
		if err := f[tt.name](tt.bad); err == nil {
			t.Errorf("%s(%q) accepted; want error", tt.name, tt.bad)
		}
	}
}

func TestRegisterFormatsThroughCompiler(t *testing.T) {
	schemaJSON := []byte(`{
		"type": "object",
		"properties": {
			"version": {"type": "string", "format": "semver"},
			"name": {"type": "string", "format": "identifier"},
			"when": {"type": "string", "format": "date-time"},
			"count": {"type": "integer", "format": "semver"}
		}
	}`)
	tests := []struct {
		name     string
		assert   bool
		instance map[string]any
		valid    bool
	}{
		{"good values", true, map[string]any{"version": "1.2.3-rc.1+build.5", "name": "x_1", "when": "1998-12-31T23:59:60Z"}, true},
		{"bad semver", true, map[string]any{"version": "01.2.3"}, false},
		{"leading v", true, map[string]any{"version": "v1.2.3"}, false},
		{"bad identifier", true, map[string]any{"name": "9x"}, false},
		{"bad month", true, map[string]any{"when": "2024-13-01T00:00:00Z"}, false},
		{"non-string skips string format", true, map[string]any{"count": 7}, true},
		{"annotation only without assertion", false, map[string]any{"version": "01.2.3"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := RegisterFormats(jsonschema.NewCompiler()).SetAssertFormat(tt.assert)
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
