package main

import (
	"errors"
	"os/exec"
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

// TestSDKServers reviews the go-sdk and mcp-go echo servers of the
// benchmark module, a module of its own. Both are admitted: their one
// tool, echo, needs an argument, so it is not called.
func TestSDKServers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	err := goBuild(t, "../../bench/sdkservers", dir, "./gosdk", "./mcpgo")
	if modulesUnavailable(err) {
		t.Skipf("the benchmark module's dependencies are not available here, so its servers cannot be built: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gosdk", "mcpgo"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res := runCheckCmd(t, "check", "--json", "--", filepath.Join(dir, name))
			d := decode(t, res.stdout)
			if res.exit != exitOK || len(d.Tools) != 1 || d.Tools[0].Name != "echo" || !d.Tools[0].Admitted {
				t.Errorf("exit %d, rules %q, tools %+v\n%s", res.exit, d.rules(), d.Tools, res.stdout)
			}
			if d.Server == nil || !strings.HasPrefix(d.Server.Name, name) {
				t.Errorf("server %+v", d.Server)
			}
		})
	}
}

// modulesUnavailable reports whether a build failed for want of modules
// (no network, no proxy, no module cache), not over the code.
func modulesUnavailable(err error) bool {
	var be *buildError
	if !errors.As(err, &be) {
		return errors.Is(err, exec.ErrNotFound)
	}
	for _, s := range []string{"missing go.sum entry", "cannot find module", "module lookup disabled", "reading https://", "dial tcp", "no required module"} {
		if strings.Contains(be.out, s) {
			return true
		}
	}
	return false
}
