package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEverything: the reviewer admits every descriptor and result of
// cmd/everything, the contract server, read-only calls only and with
// --call-all (which answers elicitations, roots and input_required rounds
// as a user who says no would).
func TestEverything(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := goBuild(t, "../everything", dir, "."); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "everything")
	for _, flags := range [][]string{nil, {"--call-all"}} {
		t.Run(strings.Join(append([]string{"check"}, flags...), " "), func(t *testing.T) {
			t.Parallel()
			res := runCheckCmd(t, append(append([]string{"check", "--json"}, flags...), "--", bin)...)
			d := decode(t, res.stdout)
			if res.exit != exitOK || d.Verdict != "admitted" {
				t.Fatalf("exit %d, verdict %q, rules %q, want 0\n%s", res.exit, d.Verdict, d.rules(), res.stdout)
			}
			called := 0
			for _, tr := range d.Tools {
				if tr.Called {
					called++
				}
			}
			pages := (len(d.Tools) + 9) / 10 // everything's page size is 10
			if d.Era != "modern" || d.Server.Name != "mcpwire-everything" || d.Pages["tools"] != pages || pages < 2 ||
				len(d.Resources) == 0 || len(d.ResourceTemplates) == 0 || len(d.Prompts) == 0 || called < 2 {
				t.Errorf("era %q, server %+v, pages %v, %d tools (%d called), %d resources, %d templates, %d prompts",
					d.Era, d.Server, d.Pages, len(d.Tools), called, len(d.Resources), len(d.ResourceTemplates), len(d.Prompts))
			}
			if flags != nil && called < 20 {
				t.Errorf("--call-all called %d tools", called)
			}
		})
	}
	t.Run("table", func(t *testing.T) {
		t.Parallel()
		res := runCheckCmd(t, "check", "--", bin)
		for _, want := range []string{"mcpwire check: mcpwire-everything", "TOOL ", "RESOURCE ", "PROMPT ", "tag_catalog", "verdict: admitted"} {
			if !strings.Contains(res.stdout, want) {
				t.Errorf("the table lacks %q:\n%s", want, res.stdout)
			}
		}
		if res.exit != exitOK || strings.Contains(res.stdout, "\x1b[") {
			t.Errorf("exit %d, or colour on a buffer:\n%s", res.exit, res.stdout)
		}
	})
}

// The go-sdk and mcp-go servers of the benchmark module and the npm
// server-everything are reviewed by the interop suite (interop/run.sh),
// which builds and installs them.
