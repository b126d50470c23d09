package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/leakcheck"
)

// fakeServerEnv makes the test binary act as a broken server (see TestMain).
const fakeServerEnv = "MCPWIRE_DEMO_FAKE_SERVER"

func TestMain(m *testing.M) {
	switch os.Getenv(fakeServerEnv) {
	case "silent": // reads everything, answers nothing
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	case "exit3": // dies at once
		os.Exit(3)
	case "stubborn": // answers nothing and ignores the end of stdin
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestSessionAgainstEverything runs the whole demo session against the
// real cmd/everything, as `make demo` does: every check must hold, every
// step caption must be printed, and there must be no colour codes.
func TestSessionAgainstEverything(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := buildServer(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer leakcheck.Check(t, leakcheck.Snapshot())

	var out bytes.Buffer
	start := time.Now()
	err = runSession(bin, &out, false)
	took := time.Since(start)
	text := out.String()
	if err != nil {
		t.Fatalf("runSession: %v\n%s", err, text)
	}
	for i, st := range steps {
		if want := fmt.Sprintf("\n%d. %s\n", i+1, st.caption); !strings.Contains(text, want) {
			t.Errorf("step caption %q not printed", strings.TrimSpace(want))
		}
	}
	for _, want := range []string{
		"→ client  this is not json",
		`"code":-32700`, `"code":-32600`, `"code":-32601`, `"code":-32602`, `"code":-32603`, `"isError":true`,
		`"method":"notifications/cancelled"`,
		"→ client  closes stdin (EOF)",
		"process exited: status 0",
		"demo passed",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(text, "FAIL") {
		t.Errorf("output has a FAIL line")
	}
	if strings.Contains(text, "\x1b") {
		t.Errorf("output has escape codes with colour off")
	}
	if took > 10*time.Second {
		t.Errorf("the session took %s", took)
	}
	if t.Failed() {
		t.Log("\n" + text)
	}
}

// TestSessionReportsBrokenServers checks that the demo fails, with FAIL
// lines and without hanging, when the server does not behave.
func TestSessionReportsBrokenServers(t *testing.T) {
	tests := []struct {
		fake string
		want []string // in the output
	}{
		{"silent", []string{"FAIL no response to id 1 within 100ms", "skipped: the server stopped answering", "demo failed"}},
		{"exit3", []string{"FAIL the server closed its stdout while waiting for response to id 1", "FAIL the server exited with exit status 3", "demo failed"}},
		{"stubborn", []string{"FAIL no response to id 1 within 100ms", "FAIL the server did not close its stdout within 100ms; killing it", "demo failed"}},
	}
	for _, tt := range tests {
		t.Run(tt.fake, func(t *testing.T) {
			t.Setenv(fakeServerEnv, tt.fake)
			var out bytes.Buffer
			start := time.Now()
			err := runSessionTimeout(os.Args[0], &out, false, 100*time.Millisecond)
			if err == nil {
				t.Fatalf("runSession succeeded against a broken server:\n%s", out.String())
			}
			if took := time.Since(start); took > 15*time.Second {
				t.Errorf("took %s against a broken server", took)
			}
			for _, want := range tt.want {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, out.String())
				}
			}
		})
	}
}

func TestModuleRootFindsGoMod(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(root + "/cmd/everything"); err != nil {
		t.Errorf("module root %s has no cmd/everything: %v", root, err)
	}
}
