package contract_test

import (
	"testing"

	json "github.com/goccy/go-json"
)

func TestPrepare(t *testing.T) {
	const weather = `{"type":"object","properties":{` +
		`"city":{"type":"string","minLength":1},` +
		`"days":{"type":"integer","minimum":1,"maximum":14,"default":3},` +
		`"units":{"type":"string","enum":["metric","imperial"],"default":"metric"},` +
		`"window":{"type":"object","properties":{"from":{"type":"integer"},"step":{"type":"integer","default":1}}}},` +
		`"required":["city"],"additionalProperties":false}`
	tests := []struct {
		name, schema, args string
		want               string // the prepared args, or the error text
		wantErr            bool
	}{
		{"valid, defaults filled in", weather, `{"city":"Oslo"}`, `{"city":"Oslo","days":3,"units":"metric"}`, false},
		{"given values kept", weather, `{"city":"Oslo","days":7,"units":"imperial"}`, `{"city":"Oslo","days":7,"units":"imperial"}`, false},
		{"nested defaults", weather, `{"city":"Oslo","window":{"from":2}}`, `{"city":"Oslo","window":{"from":2,"step":1},"days":3,"units":"metric"}`, false},
		{"every violation listed", weather, `{"days":20,"units":"kelvin","extra":1}`,
			"invalid arguments for tool t:\n" +
				"- (root): the required property \"city\" is missing (required)\n" +
				"- /days: 20 should be at most 14 (maximum)\n" +
				"- /extra: additional property is not allowed (additionalProperties)\n" +
				"- /units: \"kelvin\" should be one of \"metric\", \"imperial\" (enum)", true},
		{"wrong type", weather, `{"city":5}`, "invalid arguments for tool t:\n- /city: 5 should be a string, not an integer (type)", true},
		{"empty object, required missing", weather, `{}`, "invalid arguments for tool t:\n- (root): the required property \"city\" is missing (required)", true},
		{"the defaulted value is validated", `{"type":"object","properties":{"n":{"type":"integer","default":"oops"}}}`, `{}`,
			"invalid arguments for tool t:\n- /n: \"oops\" should be an integer, not a string (type)", true},
		{"empty object gets defaults", `{"type":"object","properties":{"n":{"type":"integer","default":5}}}`, ` { } `, `{"n":5}`, false},
		{"empty object without defaults", `{"type":"object","additionalProperties":false}`, `{}`, `{}`, false},
		{"no-arg tool refuses arguments", `{"type":"object","additionalProperties":false}`, `{"x":1}`,
			"invalid arguments for tool t:\n- /x: additional property is not allowed (additionalProperties)", true},
		{"composition", `{"type":"object","properties":{"phone":{"type":"string"},"email":{"type":"string"}},"anyOf":[{"required":["phone"]},{"required":["email"]}]}`, `{}`,
			"invalid arguments for tool t:\n- (root): {} should match at least one of the anyOf schemas (anyOf)", true},
		{"conditional", `{"type":"object","if":{"properties":{"m":{"const":"phone"}},"required":["m"]},"then":{"required":["phone"]},"else":{"required":["email"]}}`, `{"m":"phone"}`,
			"invalid arguments for tool t:\n- (root): the required property \"phone\" is missing (required)", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := rawTool("t", tt.schema, "")
			got, bad := mustCompile(t, tl).Prepare(json.RawMessage(tt.args))
			if tt.wantErr {
				if bad == nil {
					t.Fatalf("Prepare accepted %s as %s", tt.args, got)
				}
				if !bad.IsError || got != nil {
					t.Errorf("result IsError=%v, args=%s; want an isError result and no args", bad.IsError, got)
				}
				if text(bad) != tt.want {
					t.Errorf("text:\n got %q\nwant %q", text(bad), tt.want)
				}
				return
			}
			if bad != nil {
				t.Fatalf("Prepare refused %s: %s", tt.args, text(bad))
			}
			if string(got) != tt.want {
				t.Errorf("args = %s, want %s", got, tt.want)
			}
		})
	}
}

// A schema that accepts every object costs nothing: the same bytes come
// back, even when they would not be valid against a real schema.
func TestPrepareFastPath(t *testing.T) {
	for _, schema := range []string{"", `{"type":"object"}`, `{"type":"object","properties":{}}`,
		`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","description":"d","additionalProperties":true}`} {
		tl := rawTool("t", schema, "")
		args := json.RawMessage(`{"anything":[1,2,3]}`)
		got, bad := mustCompile(t, tl).Prepare(args)
		if bad != nil || &got[0] != &args[0] {
			t.Errorf("schema %s: Prepare did work: %s %v", schema, got, bad)
		}
	}
	// Not trivial: properties constrain values.
	tl := rawTool("t", `{"type":"object","properties":{"a":{"type":"string"}}}`, "")
	if _, bad := mustCompile(t, tl).Prepare(json.RawMessage(`{"a":1}`)); bad == nil {
		t.Error("a schema with properties was treated as trivial")
	}
}
