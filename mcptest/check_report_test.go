package mcptest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/mcpwire/mcpwire/internal/peer/check"
	"github.com/mcpwire/mcpwire/internal/peer/review"
)

// errorsTB keeps what report writes.
type errorsTB struct {
	testing.TB
	errors []string
}

func (e *errorsTB) Helper() {}
func (e *errorsTB) Errorf(format string, args ...any) {
	e.errors = append(e.errors, fmt.Sprintf(format, args...))
}

// report writes one error per finding, naming each item as a client
// knows it, the server's own findings, and a review that could not run.
func TestReportErrors(t *testing.T) {
	p := func(gate, rule, path string) []review.Problem {
		return []review.Problem{{Gate: gate, Rule: rule, Path: path, Message: "bad"}}
	}
	rep := check.NewReport()
	rep.Tools = []*check.ToolReport{{Name: "good", Admitted: true}, {Name: "x y", Problems: p("admit", "tool-name", "/name")}}
	rep.Resources = []*check.ItemReport{{Name: "r", URI: "test://r", Problems: p("admit", "resource-name", "/name")}}
	rep.ResourceTemplates = []*check.ItemReport{{Name: "t", URI: "test://{id}", Problems: p("admit", "resource-template", "/uriTemplate")}}
	rep.Prompts = []*check.ItemReport{{Name: "greet", Problems: p("admit", "prompt-name", "/name")}}
	rep.Problems = p("discover", "list-order", "")
	rep.Fail("discover", fmt.Errorf("client: prompts/list got no answer"))
	e := &errorsTB{TB: t}
	report(e, rep.Finish())
	want := []string{
		`mcptest.Check: tool "x y": admit tool-name at "/name": bad`,
		`mcptest.Check: resource "test://r": admit resource-name at "/name": bad`,
		`mcptest.Check: resource template "test://{id}": admit resource-template at "/uriTemplate": bad`,
		`mcptest.Check: prompt "greet": admit prompt-name at "/name": bad`,
		`mcptest.Check: the server: discover list-order at "": bad`,
		`mcptest.Check: the review could not run (discover): prompts/list got no answer`,
	}
	if !slices.Equal(e.errors, want) {
		t.Errorf("errors:\n%q\nwant:\n%q", e.errors, want)
	}
	e.errors = nil
	report(e, check.NewReport().Finish())
	if e.errors != nil {
		t.Errorf("an admitted server: %q", e.errors)
	}
}
