package main

import (
	"bufio"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SIGTERM (and SIGINT) stop the reading like stdin EOF does: the call in
// flight still finishes within the grace period and has its response
// written, and the process exits with status 0 well within the 2 s hosts
// wait before they kill a server.
func TestSignalStopsCleanly(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(binPath)
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			out := bufio.NewReader(stdout)
			send := func(line string) {
				if _, err := stdin.Write([]byte(line + "\n")); err != nil {
					t.Fatal(err)
				}
			}
			send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			if _, err := out.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
			send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"steps":3,"delay_ms":100}}}`)
			time.Sleep(50 * time.Millisecond) // the call is running
			start := time.Now()
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			line, err := out.ReadString('\n')
			if err != nil || !strings.Contains(line, `"id":2`) || !strings.Contains(line, "done: 3 steps") {
				t.Fatalf("after %v: got %q, %v; want the slow call's result", sig, line, err)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("exit: %v, want status 0", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("exit took %v after %v, want well under 2s", d, sig)
			}
		})
	}
}
