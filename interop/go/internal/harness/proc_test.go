package harness

import (
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func shell(t *testing.T) string {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on this machine")
	}
	return sh
}

func TestServerRecordsBothDirectionsAndExit(t *testing.T) {
	// A one-line echo server: it answers each line with itself and exits 3
	// at end of input.
	s, err := Start(shell(t), "-c", `while read -r l; do echo "$l"; done; echo bye >&2; exit 3`)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Kill()
	if _, err := io.WriteString(s.Stdin(), `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 100)
	n, err := s.Stdout().Read(buf)
	if err != nil || !strings.Contains(string(buf[:n]), `"ping"`) {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	exit := s.WaitExit(2 * time.Second)
	if !exit.Exited || exit.Code != 3 || exit.After > 2*time.Second {
		t.Errorf("exit = %+v, want exited with code 3 within 2s", exit)
	}
	lines := s.Wire.Lines()
	if len(lines) != 2 || lines[0].Dir != ClientToServer || lines[1].Dir != ServerToClient || lines[1].Method != "ping" {
		t.Errorf("transcript = %+v", lines)
	}
	if got := s.Stderr(); got != "bye\n" {
		t.Errorf("stderr = %q", got)
	}
}

func TestWaitExitKillsAServerThatStays(t *testing.T) {
	s, err := Start(shell(t), "-c", `trap "" HUP; exec sleep 30`)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	exit := s.WaitExit(200 * time.Millisecond)
	if exit.Exited {
		t.Errorf("exit = %+v, want a server still running", exit)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("WaitExit took %v", took)
	}
}
