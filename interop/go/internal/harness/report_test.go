package harness

import (
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	tests := []struct {
		name       string
		strict     bool
		record     func(r *Report)
		want       string
		wantFailed bool
	}{
		{"pass", false, func(r *Report) { r.Pass("echo", "ok %d", 1) }, "PASS echo: ok 1\n", false},
		{"fail", false, func(r *Report) { r.Fail("add", "got %q", "x") }, "FAIL add: got \"x\"\n", true},
		{"skip", false, func(r *Report) { r.Skip("tags", "no tool") }, "SKIP tags: no tool\n", false},
		{"skip under strict", true, func(r *Report) { r.Skip("tags", "no tool") }, "FAIL tags: skipped under strict: no tool\n", true},
		{"detail stays on one line", false, func(r *Report) { r.Pass("echo", "a\nb") }, "PASS echo: a\\nb\n", false},
		{"info is no check", true, func(r *Report) { r.Info("era %s", "legacy") }, "INFO era legacy\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			r := NewReport(&out, tt.strict)
			tt.record(r)
			if out.String() != tt.want {
				t.Errorf("output %q, want %q", out.String(), tt.want)
			}
			if r.Failed() != tt.wantFailed {
				t.Errorf("Failed() = %v, want %v", r.Failed(), tt.wantFailed)
			}
		})
	}
}

func TestStrictFromEnv(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "1": true, "yes": true} {
		t.Setenv("INTEROP_STRICT", v)
		if got := StrictFromEnv(); got != want {
			t.Errorf("INTEROP_STRICT=%q: got %v, want %v", v, got, want)
		}
	}
}
