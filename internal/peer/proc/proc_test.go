package proc

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/testsupport/syncbuf"
)

// The test binary is also the server: PROC_TEST_MODE says how it behaves.
//   - echo: copies stdin to stdout line by line, says "bye" on stderr and
//     exits 0 at stdin's end (3 when PROC_TEST_CODE says so);
//   - term: ignores stdin's end, exits 0 on SIGTERM;
//   - stubborn: ignores stdin's end and SIGTERM.
func TestMain(m *testing.M) {
	switch os.Getenv("PROC_TEST_MODE") {
	case "":
		os.Exit(m.Run())
	case "echo":
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			fmt.Println(sc.Text())
		}
		fmt.Fprintln(os.Stderr, "bye")
		if os.Getenv("PROC_TEST_CODE") == "3" {
			os.Exit(3)
		}
		os.Exit(0)
	case "term", "stubborn":
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, syscall.SIGTERM)
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin)
		for range sigs {
			if os.Getenv("PROC_TEST_MODE") == "term" {
				os.Exit(0)
			}
		}
	}
}

// start runs this test binary as a server in mode, with grace.
func start(t *testing.T, mode string, grace time.Duration, env ...string) (*Process, *syncbuf.Buffer) {
	t.Helper()
	var stderr syncbuf.Buffer
	p, err := Start([]string{os.Args[0]}, Options{
		Env:    append(append(os.Environ(), "PROC_TEST_MODE="+mode), env...),
		Stderr: &stderr,
		Grace:  grace,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop(context.Background()) })
	return p, &stderr
}

// readLine reads one line of the server's stdout.
func readLine(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("reading the server's stdout: %v", err)
	}
	return strings.TrimSuffix(line, "\n")
}

func TestStopSteps(t *testing.T) {
	for _, tt := range []struct {
		mode, code string
		grace      time.Duration
		want       Ending
		status     int
		describe   string
	}{
		// Graces are generous where the server is to exit within one,
		// and short where it must outlast it.
		{"echo", "", time.Minute, Exited, 0, "it exited with status 0"},
		{"echo", "3", time.Minute, Exited, 3, "it exited with status 3"},
		{"term", "", 2 * time.Second, Terminated, 0, "it did not exit within 2s of its stdin closing and was ended with SIGTERM"},
		{"stubborn", "", 500 * time.Millisecond, Killed, 128 + int(syscall.SIGKILL), "it did not exit within 500ms of its stdin closing nor of SIGTERM, and was killed"},
	} {
		t.Run(tt.mode+tt.code, func(t *testing.T) {
			p, stderr := start(t, tt.mode, tt.grace, "PROC_TEST_CODE="+tt.code)
			out := bufio.NewReader(p.Stdout())
			if tt.mode == "echo" {
				fmt.Fprintln(p.Stdin(), "hello")
				if got := readLine(t, out); got != "hello" {
					t.Fatalf("echo = %q", got)
				}
			} else if got := readLine(t, out); got != "ready" {
				t.Fatalf("first line = %q", got)
			}
			if got := p.Stop(context.Background()); got != tt.want {
				t.Errorf("Stop = %d, want %d", got, tt.want)
			}
			if got := p.Stop(context.Background()); got != tt.want {
				t.Errorf("a second Stop = %d, want %d", got, tt.want)
			}
			if got := p.Status(); got != tt.status {
				t.Errorf("Status = %d, want %d", got, tt.status)
			}
			if got := p.Describe(); got != tt.describe {
				t.Errorf("Describe = %q\nwant %q", got, tt.describe)
			}
			if tt.mode == "echo" && !strings.Contains(stderr.String(), "bye") {
				t.Errorf("stderr = %q, want bye", stderr.String())
			}
			select {
			case <-p.Exited():
			default:
				t.Error("Exited is not closed after Stop")
			}
		})
	}
}

// A done context skips the waits: a stubborn server is killed at once.
func TestStopContext(t *testing.T) {
	p, _ := start(t, "stubborn", time.Hour)
	readLine(t, bufio.NewReader(p.Stdout()))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan Ending)
	go func() { done <- p.Stop(ctx) }()
	select {
	case got := <-done:
		if got != Killed {
			t.Errorf("Stop = %d, want Killed", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Stop with a done context waited")
	}
}

func TestStartFails(t *testing.T) {
	if _, err := Start(nil, Options{}); err == nil {
		t.Error("Start(nil) succeeded")
	}
	_, err := Start([]string{"./no-such-server"}, Options{})
	if err == nil || !strings.Contains(err.Error(), "starting no-such-server") {
		t.Errorf("Start of a missing command: %v", err)
	}
}
