package schema_test

import (
	"fmt"

	"github.com/mcpwire/mcpwire/schema"
)

func ExampleFor() {
	type Args struct {
		City  string   `json:"city" description:"City name"`
		Days  int      `json:"days,omitempty" jsonschema:"minimum=1,maximum=14" default:"3"`
		Units string   `json:"units,omitempty" jsonschema:"enum=metric|imperial"`
		Tags  []string `json:"tags,omitempty" jsonschema:"maxItems=5"`
	}
	raw, err := schema.For[Args]()
	if err != nil {
		panic(err)
	}
	fmt.Println(string(raw))
	// Output:
	// {"type":"object","properties":{"city":{"type":"string","description":"City name"},"days":{"type":"integer","minimum":1,"maximum":14,"default":3},"units":{"type":"string","enum":["metric","imperial"]},"tags":{"type":"array","items":{"type":"string"},"maxItems":5}},"required":["city"],"additionalProperties":false}
}

// Structs tagged in the style of invopop/jsonschema infer the same schema
// as mcpwire's own tags: required forces a member into "required" (here a
// pointer and an omitempty field), description= carries a description
// (a comma in it is written \\, in the tag's source), and enum values are
// separated by "|" or given one an item.
func ExampleFor_invopop() {
	type Args struct {
		City  *string `json:"city" jsonschema:"required,description=City name\\, or a zip code"`
		Speed string  `json:"speed,omitempty" jsonschema:"required,enum=fast|slow"`
		Units string  `json:"units,omitempty" jsonschema:"enum=metric,enum=imperial,default=metric"`
		Days  int     `json:"days,omitempty" jsonschema:"minimum=1,maximum=14,default=3"`
	}
	raw, err := schema.For[Args]()
	if err != nil {
		panic(err)
	}
	fmt.Println(string(raw))
	// Output:
	// {"type":"object","properties":{"city":{"type":"string","description":"City name, or a zip code"},"speed":{"type":"string","enum":["fast","slow"]},"units":{"type":"string","enum":["metric","imperial"],"default":"metric"},"days":{"type":"integer","minimum":1,"maximum":14,"default":3}},"required":["city","speed"],"additionalProperties":false}
}

func ExampleCompile() {
	s, err := schema.Compile([]byte(`{"type":"object",
		"properties":{"a":{"type":"string"},"b":{"type":"integer","maximum":10}},
		"required":["a"],"additionalProperties":false}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Validate([]byte(`{"a":"ok","b":3}`)) == nil)
	fmt.Println(schema.FormatViolations("invalid arguments", s.Validate([]byte(`{"b":11,"c":true}`))))
	// Output:
	// true
	// invalid arguments:
	// - (root): the required property "a" is missing (required)
	// - /b: 11 should be at most 10 (maximum)
	// - /c: additional property is not allowed (additionalProperties)
}

func ExampleSchema_ApplyDefaults() {
	s, err := schema.Compile([]byte(`{"type":"object","properties":{
		"city":{"type":"string"},"days":{"type":"integer","default":3}}}`))
	if err != nil {
		panic(err)
	}
	out, err := s.ApplyDefaults([]byte(`{"city":"Paris"}`))
	fmt.Println(string(out), err)
	// Output: {"city":"Paris","days":3} <nil>
}
