package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// helperEnv names the mode in which the test binary plays a server for
// record and replay (TestRecordHelper).
const helperEnv = "MCPWIRE_RECORD_HELPER"

// helperArgv is the command line that starts the test binary as a server
// in mode.
func helperArgv(t *testing.T, mode string) []string {
	t.Setenv(helperEnv, mode)
	return []string{os.Args[0], "-test.run=^TestRecordHelper$"}
}

// TestRecordHelper is not a test: run with helperEnv set it is a server.
//
//	echo   writes each line it reads back at once, says "helper stderr"
//	       on stderr, and exits 3 at EOF
//	trap   says "ready", then on SIGTERM says "terminated" and exits 7
//	       (at EOF it exits 0)
//	clock  answers each request with its id, the time now (RFC 3339)
//	       and a random number
func TestRecordHelper(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return
	}
	in := bufio.NewReader(os.Stdin)
	switch mode {
	case "echo":
		fmt.Fprintln(os.Stderr, "helper stderr")
		for {
			line, err := in.ReadString('\n')
			os.Stdout.WriteString(line)
			if err != nil {
				os.Exit(3)
			}
		}
	case "trap":
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, syscall.SIGTERM)
		go func() { // an orphan (the test failed) ends with its stdin
			in.ReadString(0)
			os.Exit(0)
		}()
		fmt.Println("ready")
		<-sigs
		fmt.Println("terminated")
		os.Exit(7)
	case "clock":
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				os.Exit(0)
			}
			var req struct{ ID json.RawMessage }
			json.Unmarshal([]byte(line), &req)
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"now":%q,"n":%d}}`+"\n",
				req.ID, time.Now().UTC().Format(time.RFC3339Nano), rand.IntN(1<<30))
		}
	}
	os.Exit(2)
}

// recordBins builds mcpwire and cmd/everything into a temporary
// directory of t and returns it.
func recordBins(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	// cmd/everything is a module of its own: built from its directory.
	if err := goBuild(t, ".", dir, "."); err != nil {
		t.Fatal(err)
	}
	if err := goBuild(t, "../everything", dir, "."); err != nil {
		t.Fatal(err)
	}
	return dir
}

// recorder is a running `mcpwire record` process, driven as a host
// drives a server.
type recorder struct {
	cmd    *exec.Cmd
	in     *os.File
	out    *bufio.Reader
	stderr *syncWriter
}

// startRecord starts the mcpwire built in bins with args.
func startRecord(t *testing.T, bins string, args ...string) *recorder {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, filepath.Join(bins, "mcpwire"), args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{cmd: cmd, in: in.(*os.File), out: bufio.NewReader(out), stderr: &syncWriter{}}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return r
}

// roundTrip writes line and returns the next line the server wrote.
func (r *recorder) roundTrip(t *testing.T, line string) string {
	t.Helper()
	if _, err := r.in.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
	return r.readLine(t)
}

// readLine returns the next line of stdout, failing after 10s.
func (r *recorder) readLine(t *testing.T) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		l, _ := r.out.ReadString('\n')
		got <- l
	}()
	select {
	case l := <-got:
		return l
	case <-time.After(10 * time.Second):
		t.Fatal("no line from mcpwire record within 10s")
		return ""
	}
}

// wait closes stdin and returns the exit status.
func (r *recorder) wait(t *testing.T) int {
	t.Helper()
	r.in.Close()
	err := r.cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0
}

// syncWriter is a buffer safe for the exec copier and the test.
type syncWriter struct {
	mu  sync.Mutex
	buf []byte
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	return len(p), nil
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.buf)
}
