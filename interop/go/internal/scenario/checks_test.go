package scenario

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestCheckListsAgree keeps the three lists of check names in step: Checks,
// the Node scenario's CHECKS and the columns of run.sh's summary table.
func TestCheckListsAgree(t *testing.T) {
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	sh := regexp.MustCompile(`(?m)^checks="([^"]*)"`).FindStringSubmatch(read("../../../run.sh"))
	if sh == nil {
		t.Fatal(`run.sh has no checks="..." line`)
	}
	if got := strings.Fields(sh[1]); !slices.Equal(got, Checks) {
		t.Errorf("run.sh columns %v\nChecks          %v", got, Checks)
	}
	js := regexp.MustCompile(`(?s)export const CHECKS = \[(.*?)\];`).FindStringSubmatch(read("../../../node/lib/scenario.mjs"))
	if js == nil {
		t.Fatal("scenario.mjs has no CHECKS")
	}
	var got []string
	for _, m := range regexp.MustCompile(`'([a-z0-9-]+)'`).FindAllStringSubmatch(js[1], -1) {
		got = append(got, m[1])
	}
	if !slices.Equal(got, Checks) {
		t.Errorf("Node CHECKS %v\nChecks      %v", got, Checks)
	}
}
