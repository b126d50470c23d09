package review_test

import (
	"fmt"

	"github.com/mcpwire/mcpwire/internal/peer/review"
)

// A tool whose output schema has an array root is admitted on 2026-07-28
// and refused on a 2025-11-25 connection, whose clients reject it.
func ExampleTool() {
	tool := []byte(`{"name":"tags","inputSchema":{"type":"object"},"outputSchema":{"type":"array","items":{"type":"string"}}}`)
	fmt.Println(review.Tool("2026-07-28", tool) == nil)
	for _, p := range review.Tool("2025-11-25", tool) {
		fmt.Println(p.Gate, p.Rule, p.Path)
	}
	// Output:
	// true
	// admit output-schema-root /outputSchema
}

// The header audit names headers and pointers, never values.
func ExampleHeaders() {
	tool := []byte(`{"name":"route","inputSchema":{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"ratio":{"type":"number","x-mcp-header":"Ratio"}}}}`)
	for _, v := range review.Headers(tool) {
		fmt.Println(v.Header, v.Path, v.Verdict)
	}
	// Output:
	// Ratio /inputSchema/properties/ratio header-type
	// Region /inputSchema/properties/region ok
}

// A result whose structured content breaks the output schema, and has no
// text mirror.
func ExampleResult() {
	tool := []byte(`{"name":"add","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"]}}`)
	result := []byte(`{"content":[{"type":"text","text":"done"}],"structuredContent":{"sum":"5"}}`)
	for _, p := range review.Result("2025-11-25", tool, result) {
		fmt.Println(p.Rule, p.Path)
	}
	// Output:
	// structured-content-schema /structuredContent/sum
	// structured-text-mirror /content
}
