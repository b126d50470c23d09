package review

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/protocol"
)

// Revisions, short.
const (
	r0 = "2024-11-05"
	r1 = "2025-03-26"
	r2 = "2025-06-18"
	r3 = "2025-11-25"
	rM = "2026-07-28"
)

// ruleCase is a table row: input that breaks exactly one rule, and the one
// problem it must give.
type ruleCase struct {
	name string
	rev  string
	desc string // the descriptor
	res  string // the result, for Result
	rule string // the expected rule id
	path string // the expected pointer
}

// checkOne fails the test unless got is exactly one problem of the gate,
// rule and path.
func checkOne(t *testing.T, got []Problem, gate, rule, path string) {
	t.Helper()
	if len(got) != 1 {
		t.Fatalf("got %d problems, want exactly one %s at %q:\n%s", len(got), rule, path, list(got))
	}
	p := got[0]
	if p.Gate != gate || p.Rule != rule || p.Path != path {
		t.Errorf("got %s, want gate %s rule %s path %q", list(got), gate, rule, path)
	}
	checkMessage(t, p)
}

// checkMessage requires one sentence: not empty, one line, no trailing
// period doubling, short enough to read.
func checkMessage(t *testing.T, p Problem) {
	t.Helper()
	if p.Message == "" || strings.Contains(p.Message, "\n") || len(p.Message) > 400 {
		t.Errorf("message of %s is not one readable sentence: %q", p.Rule, p.Message)
	}
}

// checkNone fails the test for any problem.
func checkNone(t *testing.T, got []Problem) {
	t.Helper()
	if len(got) > 0 {
		t.Errorf("want no problem, got:\n%s", list(got))
	}
}

func list(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "  %s %s %q: %s\n", p.Gate, p.Rule, p.Path, p.Message)
	}
	return b.String()
}

// allCases is every table of rule cases.
func allCases() [][]ruleCase {
	return [][]ruleCase{toolCases, headerCases, resultCases, contentCases, structuredCases, resourceCases, templateCases, promptCases}
}

// Every rule id has a table row that breaks it, and Rules lists every
// Rule* constant of rules.go.
func TestEveryRuleHasACase(t *testing.T) {
	tested := map[string]bool{}
	for _, table := range allCases() {
		for _, c := range table {
			tested[c.rule] = true
		}
	}
	kebab := regexp.MustCompile(`^[a-z]+(-[a-z0-9]+)*$`)
	seen := map[string]bool{}
	for _, r := range Rules() {
		switch {
		case !kebab.MatchString(r):
			t.Errorf("rule id %q is not kebab-case", r)
		case seen[r]:
			t.Errorf("rule id %q listed twice", r)
		case !tested[r]:
			t.Errorf("rule %q has no table case", r)
		}
		seen[r] = true
	}
	if n := countRuleConstants(t); n != len(Rules()) {
		t.Errorf("rules.go declares %d Rule* constants, Rules lists %d", n, len(Rules()))
	}
}

func countRuleConstants(t *testing.T) int {
	f, err := parser.ParseFile(token.NewFileSet(), "rules.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		if v, ok := node.(*ast.ValueSpec); ok {
			for _, id := range v.Names {
				if strings.HasPrefix(id.Name, "Rule") {
					n++
				}
			}
		}
		return true
	})
	return n
}

// revisions are the revisions the reviewer knows, as the revision
// argument spells them, oldest first.
func revisions() []string {
	var out []string
	for _, r := range protocol.Revisions() {
		out = append(out, r.String())
	}
	return out
}

func TestRevisions(t *testing.T) {
	if got := revisions(); strings.Join(got, " ") != strings.Join([]string{r0, r1, r2, r3, rM}, " ") {
		t.Errorf("revisions() = %v", got)
	}
}

// An unknown revision is the one problem of every function.
func TestUnknownRevision(t *testing.T) {
	const tool = `{"name":"t","inputSchema":{"type":"object"}}`
	for _, rev := range []string{"", "2025-01-01", "2026-07-28 ", "latest"} {
		checkOne(t, Tool(rev, []byte(tool)), GateAdmit, RuleRevision, "")
		checkOne(t, Result(rev, []byte(tool), []byte(`{"content":[]}`)), GateConsume, RuleRevision, "")
		checkOne(t, Resource(rev, []byte(`{"uri":"a:b","name":"n"}`)), GateAdmit, RuleRevision, "")
		checkOne(t, ResourceTemplate(rev, []byte(`{"uriTemplate":"a:{b}","name":"n"}`)), GateAdmit, RuleRevision, "")
		checkOne(t, Prompt(rev, []byte(`{"name":"n"}`)), GateAdmit, RuleRevision, "")
	}
}
