package mcp

import (
	"testing"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"
)

func TestLegacyOutputSchema(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"object schema unchanged", `{"type":"object","properties":{"a":{"type":"string"}}}`,
			`{"type":"object","properties":{"a":{"type":"string"}}}`},
		{"array wrapped", `{"type":"array","items":{"type":"string"}}`,
			`{"type":"object","properties":{"result":{"type":"array","items":{"type":"string"}}},"required":["result"]}`},
		{"root keywords lifted", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"array","items":{"$ref":"#/$defs/T"},"$defs":{"T":{"type":"string"}}}`,
			`{"type":"object","properties":{"result":{"type":"array","items":{"$ref":"#/$defs/T"}}},"required":["result"],"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"T":{"type":"string"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got, want any
			if err := json.Unmarshal(legacyOutputSchema(json.RawMessage(tt.in)), &got); err != nil {
				t.Fatal(err)
			}
			json.Unmarshal([]byte(tt.want), &want)
			if d := cmp.Diff(want, got); d != "" {
				t.Error(d)
			}
		})
	}
}
