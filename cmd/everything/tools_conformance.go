package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// conformanceTools are the tools the official MCP conformance suite
// (npm @modelcontextprotocol/conformance) calls by name, with the outputs
// it expects.
func conformanceTools() []tool.Tool {
	return []tool.Tool{
		textTool("test_simple_text", "Tests simple text content response",
			tool.NewText("This is a simple text response for testing.")),
		textTool("test_image_content", "Tests image content response",
			tool.NewImage(pixelPNG, "image/png")),
		textTool("test_audio_content", "Tests audio content response",
			tool.NewAudio(shortWAV, "audio/wav")),
		textTool("test_embedded_resource", "Tests embedded resource content response",
			tool.NewEmbeddedText("test://embedded-resource", "text/plain", "This is an embedded resource content.")),
		textTool("test_multiple_content_types", "Tests response with multiple content types (text, image, resource)",
			tool.NewText("Multiple content types test:"),
			tool.NewImage(pixelPNG, "image/png"),
			tool.NewEmbeddedText("test://mixed-content-resource", "application/json", `{"test":"data","value":123}`)),
		progressTool(),
		errorTool(),
		jsonSchemaTool(),
	}
}

// textTool returns a tool without arguments that always returns blocks.
func textTool(name, description string, blocks ...tool.Content) tool.Tool {
	return tool.New(name, description, func(context.Context, struct{}) (*tool.Result, error) {
		return &tool.Result{Content: blocks}, nil
	})
}

// progressTool reports progress 0, 50 and 100 of 100, 50 ms apart.
func progressTool() tool.Tool {
	return tool.New("test_tool_with_progress", "Tests tool that reports progress notifications",
		func(ctx context.Context, _ struct{}) (*tool.Result, error) {
			for i, p := range []float64{0, 50, 100} {
				if i > 0 {
					if err := sleep(ctx, 50*time.Millisecond); err != nil {
						return nil, err
					}
				}
				mcp.ReportProgress(ctx, p, 100, "")
			}
			return tool.TextResult("Progress test completed: reported 0, 50 and 100 of 100."), nil
		})
}

// errorTool fails with a plain Go error, which becomes an isError result.
func errorTool() tool.Tool {
	return tool.New("test_error_handling", "Tests error response handling",
		func(context.Context, struct{}) (*tool.Result, error) {
			return nil, errors.New("This tool intentionally returns an error for testing")
		})
}

// jsonSchema2020 is json_schema_2020_12_tool's input schema, listed
// verbatim: $schema, $defs with $anchor, $ref, allOf/anyOf and
// if/then/else. The runtime validates calls against all of it.
const jsonSchema2020 = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",` +
	`"$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},` +
	`"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},` +
	`"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},` +
	`"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],` +
	`"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},` +
	`"then":{"required":["phone"]},"else":{"required":["email"]},` +
	`"additionalProperties":false}`

type contact struct {
	Name    string `json:"name,omitempty"`
	Address *struct {
		Street string `json:"street,omitempty"`
		City   string `json:"city,omitempty"`
	} `json:"address,omitempty"`
	ContactMethod string `json:"contactMethod,omitempty"`
	Phone         string `json:"phone,omitempty"`
	Email         string `json:"email,omitempty"`
}

func jsonSchemaTool() tool.Tool {
	return tool.New("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features",
		func(_ context.Context, in contact) (*tool.Result, error) {
			via, at := "email", in.Email
			if in.ContactMethod == "phone" {
				via, at = "phone", in.Phone
			}
			who := in.Name
			if who == "" {
				who = "the contact"
			}
			var b strings.Builder
			fmt.Fprintf(&b, "Contact accepted: reach %s by %s at %s", who, via, at)
			if in.Address != nil {
				fmt.Fprintf(&b, "; address %s, %s", in.Address.Street, in.Address.City)
			}
			return tool.TextResult(b.String() + "."), nil
		},
		tool.WithInputSchema(json.RawMessage(jsonSchema2020)))
}
