package yamlcheck_test

import (
	"fmt"

	"github.com/kaptinlin/jsonschema"
	"github.com/mcpwire/mcpwire/validate"
	"github.com/mcpwire/mcpwire/validate/yamlcheck"
)

func ExampleYAML() {
	fmt.Println(yamlcheck.YAML("name: demo\ntags: [a, b]"))
	fmt.Println(yamlcheck.YAML("a: 1\na: 2"))
	// Output:
	// <nil>
	// not valid YAML: [2:1] mapping key "a" already defined at [1:1]
}

func ExampleRegisterFormat() {
	c := yamlcheck.RegisterFormat(validate.RegisterFormats(jsonschema.NewCompiler())).SetAssertFormat(true)
	schema, err := c.Compile([]byte(`{"type": "string", "format": "yaml"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(schema.Validate("a: 1").IsValid(), schema.Validate("a: [1").IsValid())
	// Output: true false
}
