package transport_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// stdioChildEnv selects the child role of TestStdioGuard.
const stdioChildEnv = "MCPWIRE_TRANSPORT_STDIO_CHILD"

// TestStdioChild is the child process of TestStdioGuard: it opens Stdio,
// prints a stray line with fmt.Println and sends one message.
func TestStdioChild(t *testing.T) {
	mode := os.Getenv(stdioChildEnv)
	if mode == "" {
		t.Skip("run by TestStdioGuard")
	}
	s, err := transport.Stdio(transport.StdioOptions{NoGuard: mode == "noguard"})
	if err != nil {
		fmt.Fprintln(os.Stderr, "Stdio:", err)
		os.Exit(2)
	}
	fmt.Println("stray")
	if err := s.Write(context.Background(), &jsonrpc.Notification{Method: "hello"}); err != nil {
		fmt.Fprintln(os.Stderr, "Write:", err)
		os.Exit(2)
	}
	if err := s.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "Close:", err)
		os.Exit(2)
	}
	os.Exit(0) // skip the test framework's own output
}

func TestStdioGuard(t *testing.T) {
	const line = `{"jsonrpc":"2.0","method":"hello"}` + "\n"
	tests := []struct {
		mode       string
		wantStdout string
		strayIn    string // "stdout" or "stderr"
	}{
		{"guard", line, "stderr"},
		{"noguard", "stray\n" + line, "stdout"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestStdioChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), stdioChildEnv+"="+tt.mode)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Stdin = strings.NewReader("")
			if err := cmd.Run(); err != nil {
				t.Fatalf("child: %v\nstderr: %s", err, stderr.String())
			}
			if stdout.String() != tt.wantStdout {
				t.Errorf("child stdout = %q, want %q", stdout.String(), tt.wantStdout)
			}
			strayOnStderr := strings.Contains(stderr.String(), "stray")
			if strayOnStderr != (tt.strayIn == "stderr") {
				t.Errorf("child stderr = %q; want the stray line on %s", stderr.String(), tt.strayIn)
			}
		})
	}
}
