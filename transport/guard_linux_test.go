package transport

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// guardChildEnv makes the test binary run guardChild instead of the test.
const guardChildEnv = "MCPWIRE_TEST_GUARD_CHILD"

// TestGuardStdoutCloseOnExec runs guardStdout in a child process (so that
// this process's own stdout stays where it is) and checks that the
// protocol descriptor is close-on-exec, that descriptor 1 is not, and that
// a stray print lands on standard error.
func TestGuardStdoutCloseOnExec(t *testing.T) {
	if os.Getenv(guardChildEnv) == "1" {
		guardChild()
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGuardStdoutCloseOnExec$", "-test.count=1")
	cmd.Env = append(os.Environ(), guardChildEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	if got, want := stdout.String(), "protocol cloexec=true stdout cloexec=false\n"; got != want {
		t.Errorf("child's protocol stream = %q, want %q (stderr: %s)", got, want, stderr.String())
	}
	if !strings.Contains(stderr.String(), "stray print") {
		t.Errorf("stray print not on stderr: %q", stderr.String())
	}
}

// guardChild guards stdout, reports the descriptors' close-on-exec flags on
// the protocol stream, prints to os.Stdout, and exits.
func guardChild() {
	f, err := guardStdout()
	if err != nil || f == nil {
		fmt.Fprintf(os.Stderr, "guardStdout: %v, %v\n", f, err)
		os.Exit(2)
	}
	proto, err1 := closeOnExec(f.Fd())
	stdout, err2 := closeOnExec(1)
	if err1 != nil || err2 != nil {
		fmt.Fprintf(os.Stderr, "F_GETFD: %v, %v\n", err1, err2)
		os.Exit(2)
	}
	fmt.Fprintf(f, "protocol cloexec=%v stdout cloexec=%v\n", proto, stdout)
	fmt.Println("stray print")
	os.Exit(0)
}

// closeOnExec reports whether descriptor fd has FD_CLOEXEC set.
func closeOnExec(fd uintptr) (bool, error) {
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFD, 0)
	if errno != 0 {
		return false, errno
	}
	return flags&syscall.FD_CLOEXEC != 0, nil
}

// TestGuardStdoutEarly: a guard taken at the top of main sends a print
// made before serving to stderr, and Stdio, even with NoGuard, writes the
// protocol to the real stdout.
func TestGuardStdoutEarly(t *testing.T) {
	if os.Getenv(guardChildEnv) == "early" {
		if err := GuardStdout(); err != nil {
			fmt.Fprintln(os.Stderr, "GuardStdout:", err)
			os.Exit(2)
		}
		fmt.Println("early stray print")
		if err := GuardStdout(); err != nil { // a second call is harmless
			os.Exit(2)
		}
		s, err := Stdio(StdioOptions{NoGuard: true})
		if err != nil {
			os.Exit(2)
		}
		fmt.Fprintln(s.w, "protocol line")
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGuardStdoutEarly$", "-test.count=1")
	cmd.Env = append(os.Environ(), guardChildEnv+"=early")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	if got := stdout.String(); got != "protocol line\n" {
		t.Errorf("stdout = %q, want only the protocol line", got)
	}
	if !strings.Contains(stderr.String(), "early stray print") {
		t.Errorf("the early print is not on stderr: %q", stderr.String())
	}
}
