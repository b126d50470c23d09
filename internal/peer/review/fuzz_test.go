package review

import (
	"slices"
	"testing"

	json "github.com/goccy/go-json"
)

// FuzzReview feeds any bytes to every function in every revision: none
// panics, and every problem carries a gate, a listed rule and a message.
func FuzzReview(f *testing.F) {
	for _, table := range allCases() {
		for _, c := range table {
			f.Add([]byte(c.desc), []byte(c.res))
		}
	}
	f.Add([]byte(sumTool), []byte(ok5))
	f.Fuzz(func(t *testing.T, desc, res []byte) {
		for _, rev := range revisions() {
			var all []Problem
			all = append(all, Tool(rev, desc)...)
			all = append(all, Result(rev, desc, res)...)
			all = append(all, Resource(rev, desc)...)
			all = append(all, ResourceTemplate(rev, desc)...)
			all = append(all, Prompt(rev, desc)...)
			for _, p := range all {
				if (p.Gate != GateAdmit && p.Gate != GateConsume) || !slices.Contains(rules, p.Rule) || p.Message == "" {
					t.Fatalf("bad problem %+v", p)
				}
			}
			ResultType(rev, res)
		}
		for _, v := range Headers(json.RawMessage(desc)) {
			if v.Verdict != VerdictOK && !slices.Contains(rules, v.Verdict) {
				t.Fatalf("bad verdict %+v", v)
			}
		}
	})
}
