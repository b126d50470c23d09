package mcp

import (
	"testing"

	"github.com/mcpwire/mcpwire/internal/testsupport/wirecheck"
	"github.com/mcpwire/mcpwire/protocol"
)

// absentMethods are the client requests a revision's schema defines that
// the server deliberately does not serve, with the reason.
var absentMethods = map[string]string{
	"tasks/get":    "2025-11-25's tasks: tasks are served only as the 2026-07-28 tasks extension",
	"tasks/result": "2025-11-25's tasks: tasks are served only as the 2026-07-28 tasks extension",
	"tasks/list":   "2025-11-25's tasks: tasks are served only as the 2026-07-28 tasks extension",
	"tasks/cancel": "2025-11-25's tasks: tasks are served only as the 2026-07-28 tasks extension",
}

// extensionMethods are the methods of the table that an extension defines
// rather than the schema: the tasks extension of 2026-07-28 (SEP-2663),
// whose results the schema knows only as its base Result.
var extensionMethods = map[string]bool{
	protocol.MethodGetTask: true, protocol.MethodUpdateTask: true, protocol.MethodCancelTask: true,
}

// TestMethodTable walks the method table: every line has the facts its
// era needs, and the table and the schemas agree on which requests a
// server answers in which era, and with which result.
func TestMethodTable(t *testing.T) {
	for name, m := range methods {
		if m.handle == nil || (!m.legacy && !m.modern) || m.result == "" {
			t.Errorf("%s: a method needs a handler, an era and its result's schema definition", name)
		}
		if m.inline && m.long {
			t.Errorf("%s: a method runs inline or on its own goroutine, not both", name)
		}
		if m.cacheable && !m.modern {
			t.Errorf("%s: only modern results carry cache hints", name)
		}
		if m.asks && m.target != targetTool && m.target != targetPrompt && m.target != targetResource {
			t.Errorf("%s: a method that may ask the client needs a tool, prompt or resource target to bind its input state to", name)
		}
		if m.named != "" && !m.modern {
			t.Errorf("%s: Mcp-Name belongs to the 2026-07-28 Streamable HTTP transport", name)
		}
		wantNamed := map[target]string{targetTool: "name", targetPrompt: "name", targetTask: "taskId"}[m.target]
		if m.target == targetResource && m.modern {
			wantNamed = "uri"
		}
		if m.modern && m.named != wantNamed {
			t.Errorf("%s: Mcp-Name mirrors %q, want %q for its target", name, m.named, wantNamed)
		}
		if extensionMethods[name] && m.result != "Result" {
			t.Errorf("%s: an extension's result is checked as the schema's base Result", name)
		}
	}
	c, err := wirecheck.Load("../testdata/schema")
	if err != nil {
		t.Fatal(err)
	}
	inSchema := map[string]map[protocol.Era]bool{}
	for _, rev := range c.Revisions() {
		era := protocol.ParseRevision(rev).Era()
		for _, w := range c.MethodsOf(rev) {
			if w.Kind != wirecheck.ClientRequest {
				continue
			}
			if inSchema[w.Name] == nil {
				inSchema[w.Name] = map[protocol.Era]bool{}
			}
			inSchema[w.Name][era] = true
			m, ok := methods[w.Name]
			served := ok && ((era == protocol.Modern && m.modern) || (era == protocol.Legacy && m.legacy))
			switch {
			case !served && absentMethods[w.Name] == "":
				t.Errorf("%s: %s defines it for servers; add it to the method table or to absentMethods", rev, w.Name)
			case served && m.result != w.Result:
				t.Errorf("%s: %s answers %s, the schema %s", rev, w.Name, m.result, w.Result)
			}
		}
	}
	for name, m := range methods {
		if m.legacy && !inSchema[name][protocol.Legacy] {
			t.Errorf("%s: served in the legacy era, which no legacy schema defines", name)
		}
		if m.modern && !inSchema[name][protocol.Modern] && !extensionMethods[name] {
			t.Errorf("%s: served in the modern era, which its schema does not define", name)
		}
	}
}
