package main

import (
	"context"
	"strconv"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/mcp"
)

// The texts of the conformance resources, as the official suite's
// reference server serves them.
const (
	staticText      = "This is the content of the static text resource."
	exampleText     = "Embedded resource content for testing."
	templateURI     = "test://template/{id}/data"
	itemsURI        = "test://items/{n}"
	itemCount       = 250
	exampleResource = "test://example-resource"
)

// resources returns the static resources in listing order: the ones the
// conformance suite reads, then the evidence documents caller may see
// (evidence.go).
func resources(w *watched, caller *auth.Principal) []mcp.Resource {
	size := int64(len(pixelPNG))
	list := []mcp.Resource{
		{
			URI: "test://static-text", Name: "static-text", Title: "Static text",
			Description: "A text resource whose contents never change.", MimeType: "text/plain",
			Read: mcp.StaticRead(staticText),
		},
		{
			URI: "test://static-binary", Name: "static-binary", Title: "Static binary",
			Description: "A binary resource: a 1×1 PNG image.", MimeType: "image/png", Size: &size,
			Read: mcp.StaticRead(pixelPNG),
		},
		w.resource(),
		{
			URI: exampleResource, Name: "example-resource", Title: "Example resource",
			Description: "The resource test_prompt_with_embedded_resource embeds in the conformance suite.", MimeType: "text/plain",
			Read: mcp.StaticRead(exampleText),
		},
	}
	for _, e := range evidenceFor(caller) {
		list = append(list, e.resource())
	}
	return list
}

// templates returns the resource templates: test://template/{id}/data,
// and with fixtures test://items/{n}, whose completion offers more values
// than one completion result carries.
func templates(fixtures bool) []mcp.ResourceTemplate {
	list := []mcp.ResourceTemplate{{
		URITemplate: templateURI, Name: "template-data", Title: "Template data",
		Description: "JSON data for any id: test://template/123/data names the data of id 123 ({id} is one path segment).",
		MimeType:    "application/json",
		Read: func(_ context.Context, uri string, vars map[string]string) ([]mcp.ResourceContents, error) {
			b, err := json.Marshal(templateData{ID: vars["id"], TemplateTest: true, Data: "Data for ID: " + vars["id"]})
			if err != nil {
				return nil, err
			}
			return []mcp.ResourceContents{mcp.TextContents(uri, "application/json", string(b))}, nil
		},
	}}
	if fixtures {
		list = append(list, itemsTemplate())
	}
	return list
}

// templateData is the JSON document test://template/{id}/data holds.
type templateData struct {
	ID           string `json:"id"`
	TemplateTest bool   `json:"templateTest"`
	Data         string `json:"data"`
}

// itemsTemplate is a fixture: items 1 to itemCount, whose {n} completes to
// every number that starts with what was typed, so that "" and "1" give
// more values than mcp.MaxCompletionValues.
func itemsTemplate() mcp.ResourceTemplate {
	numbers := make([]string, itemCount)
	for i := range numbers {
		numbers[i] = strconv.Itoa(i + 1)
	}
	return mcp.ResourceTemplate{
		URITemplate: itemsURI, Name: "numbered-item", Title: "Numbered item (fixture)",
		Description: "Fixture: items 1 to 250. Completing {n} suggests every number starting with what was typed, more than one completion result carries.",
		MimeType:    "text/plain",
		Read: func(_ context.Context, uri string, vars map[string]string) ([]mcp.ResourceContents, error) {
			n, err := strconv.Atoi(vars["n"])
			if err != nil || n < 1 || n > itemCount || strconv.Itoa(n) != vars["n"] {
				return nil, mcp.ErrResourceNotFound
			}
			return []mcp.ResourceContents{mcp.TextContents(uri, "text/plain", "Item "+vars["n"]+" of 250.")}, nil
		},
		Complete: map[string]mcp.CompleteFunc{"n": mcp.CompletePrefix(numbers...)},
	}
}
