package main

import (
	"path/filepath"
	"testing"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
)

// TestNoLeaks: a review leaves no goroutine behind, whether it ran, found
// garbage, or could not run. It is not parallel, so that the goroutines it
// counts are its own.
func TestNoLeaks(t *testing.T) {
	dir := t.TempDir()
	if err := goBuild(t, ".", dir, "./testdata/fixture"); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "fixture")
	for _, c := range []string{"good", "garbage", "legacy-only", "crash"} {
		before := leakcheck.Snapshot()
		res := runCheckCmd(t, "check", "--call-all", "--", bin, "-case", c)
		if res.exit == exitNotRun && c != "crash" {
			t.Errorf("%s: exit %d\n%s", c, res.exit, res.stdout)
		}
		leakcheck.Check(t, before)
	}
}
