package header_test

import (
	"errors"
	"fmt"

	"github.com/mcpwire/mcpwire/internal/header"
)

func ExampleEncodeValue() {
	for _, s := range []string{"us-west1", "Hello, 世界", " padded ", "=?base64?literal?="} {
		fmt.Println(header.EncodeValue(s))
	}
	// Output:
	// us-west1
	// =?base64?SGVsbG8sIOS4lueVjA==?=
	// =?base64?IHBhZGRlZCA=?=
	// =?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=
}

func ExampleDecodeValue() {
	s, err := header.DecodeValue("=?base64?SGVsbG8sIOS4lueVjA==?=")
	fmt.Println(s, err)
	// Output: Hello, 世界 <nil>
}

func ExampleCheckInputSchema() {
	schema := []byte(`{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"ratio":{"type":"number","x-mcp-header":"Ratio"}}}`)
	err := header.CheckInputSchema(schema)
	fmt.Println(errors.Is(err, header.ErrType))
	fmt.Println(err)
	// Output:
	// true
	// x-mcp-header at /properties/ratio: annotated property must have "type" "string", "integer" or "boolean" (header "Ratio"): the property has "type": "number"
}

func ExampleAnnotations() {
	schema := []byte(`{"type":"object","properties":{
		"loc":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}}}`)
	anns, err := header.Annotations(schema)
	if err != nil {
		panic(err)
	}
	for _, a := range anns {
		fmt.Println(a.Header, a.Pointer, a.Path, a.Type)
	}
	// Output: Region /properties/loc/properties/region [loc region] string
}

func ExampleParseInteger() {
	n, err := header.ParseInteger("42.0")
	fmt.Println(n, err)
	_, err = header.ParseInteger("9007199254740992")
	fmt.Println(errors.Is(err, header.ErrUnsafeInteger))
	// Output:
	// 42 <nil>
	// true
}
