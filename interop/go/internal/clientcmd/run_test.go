package clientcmd

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/interop/go/internal/scenario"
)

// fakeClient returns a client whose adapter records the mode it was built
// for in *legacy and never connects.
func fakeClient(legacy *[]bool) Client {
	return Client{
		Label: "fake v0",
		Connect: func(l bool) scenario.Connect {
			*legacy = append(*legacy, l)
			return func(context.Context, scenario.Link, *scenario.Handlers) (scenario.Session, error) {
				return nil, errors.New("fake client cannot connect")
			}
		},
	}
}

func TestRunUsage(t *testing.T) {
	t.Setenv("INTEROP_SERVER", "")
	tests := []struct {
		name      string
		args      []string
		want      int
		wantUsage bool
	}{
		{"no server", nil, 2, true},
		{"unknown mode", []string{"-server", "s", "-mode", "modern"}, 2, true},
		{"unknown transport", []string{"-server", "s", "-transport", "sse"}, 2, true},
		{"unknown flag", []string{"-server", "s", "-x"}, 2, true},
		{"help", []string{"-h"}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var legacy []bool
			var stdout, stderr strings.Builder
			got := Run(fakeClient(&legacy), append([]string{"client"}, tt.args...), &stdout, &stderr)
			if got != tt.want {
				t.Errorf("exit status %d, want %d", got, tt.want)
			}
			if stdout.Len() != 0 || len(legacy) != 0 {
				t.Errorf("ran the scenario (stdout %q, connects %v)", stdout.String(), legacy)
			}
			if usage := strings.Contains(stderr.String(), "Usage of client:"); usage != tt.wantUsage {
				t.Errorf("usage printed: %v, want %v; stderr %q", usage, tt.wantUsage, stderr.String())
			}
		})
	}
}

// TestRunReportsFailure runs the scenario against a server that is not an
// MCP server (the test binary itself) with a client that cannot connect:
// the mode must reach the adapter and the run must end in RESULT FAIL with
// status 1.
func TestRunReportsFailure(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	t.Setenv("INTEROP_WIRE_FILE", "")
	tests := []struct {
		mode       string
		wantLegacy bool
	}{
		{"default", false},
		{"legacy", true},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			var legacy []bool
			var stdout, stderr strings.Builder
			got := Run(fakeClient(&legacy), []string{"client", "-server", self, "-mode", tt.mode}, &stdout, &stderr)
			if got != 1 {
				t.Errorf("exit status %d, want 1", got)
			}
			if len(legacy) != 1 || legacy[0] != tt.wantLegacy {
				t.Errorf("adapter built for legacy %v, want [%v]", legacy, tt.wantLegacy)
			}
			out := stdout.String()
			for _, want := range []string{
				"INFO client fake v0, transport stdio, mode " + tt.mode + "\n",
				"FAIL connect: ",
				"fake client cannot connect",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			if !strings.HasSuffix(out, "\nRESULT FAIL\n") {
				t.Errorf("output does not end in RESULT FAIL:\n%s", out)
			}
		})
	}
}
