package golden

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
)

// TestHTTPFile is one HTTP transcript as a test: it loads the file at
// path, replays it against the target serve starts for it (stopping it
// after), reports every problem, and fails when a goroutine outlives the
// replay. With update it first records what the server answers and
// rewrites the file, then replays the rewritten transcript.
func TestHTTPFile(t *testing.T, path string, update bool, serve func(*HTTPTranscript) (HTTPTarget, func()), check Checker) {
	t.Helper()
	tr, err := LoadHTTP(path)
	if err != nil {
		t.Fatal(err)
	}
	if update {
		target, stop := serve(tr)
		o := RecordHTTP(tr, target)
		stop()
		for _, p := range o.Problems {
			t.Error(p)
		}
		tr = o.Rewrite(tr)
		if err := os.WriteFile(path, []byte(tr.Format()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := leakcheck.Snapshot()
	target, stop := serve(tr)
	o := ReplayHTTP(tr, target, check)
	stop()
	for _, p := range o.Problems {
		t.Errorf("%s: %s", filepath.Base(path), p)
	}
	leakcheck.Check(t, before)
}
