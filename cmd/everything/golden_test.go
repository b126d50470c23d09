package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/golden"
	"github.com/mcpwire/mcpwire/internal/leakcheck"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts with what the server writes")

const goldenDir = "../../testdata/golden"

// binPath is the cmd/everything binary built once for the whole test run.
var binPath string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "everything-bin")
	if err != nil {
		panic(err)
	}
	binPath = filepath.Join(dir, "everything")
	build := exec.Command("go", "build", "-o", binPath, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("building cmd/everything: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func transcripts(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden transcripts in %s (%v)", goldenDir, err)
	}
	return files
}

// config turns a transcript's config into server settings; its keys are
// page-size, max-message-bytes, grace, caller (as -caller takes it),
// completion-rate, input-state-ttl and client-request-timeout (durations,
// as -input-state-ttl and -client-request-timeout take them). The watched resource never changes on a timer in a
// transcript (-watch-interval 0): test_trigger_resource_update changes it
// when a transcript says so.
type config struct {
	pageSize       int
	maxMsg         int
	grace          time.Duration
	caller         string // as -caller takes it, such as ada:operator
	completionRate int
	// inputStateTTL is how long a requestState stays valid.
	inputStateTTL time.Duration
	// clientRequestTimeout bounds the wait for a legacy client's answer.
	clientRequestTimeout time.Duration
}

func configOf(t *testing.T, tr *golden.Transcript) config {
	c := config{pageSize: 10, maxMsg: transport.DefaultMaxMessageBytes, grace: time.Second,
		inputStateTTL: mcp.DefaultInputStateTTL, clientRequestTimeout: mcp.DefaultClientRequestTimeout}
	for k, v := range tr.Config {
		var err error
		switch k {
		case "page-size":
			c.pageSize, err = strconv.Atoi(v)
		case "max-message-bytes":
			c.maxMsg, err = strconv.Atoi(v)
		case "grace":
			c.grace, err = time.ParseDuration(v)
		case "caller":
			c.caller = v
			_, err = parseCaller(v)
		case "completion-rate":
			c.completionRate, err = strconv.Atoi(v)
		case "input-state-ttl":
			c.inputStateTTL, err = positiveDuration(v)
		case "client-request-timeout":
			c.clientRequestTimeout, err = positiveDuration(v)
		default:
			t.Fatalf("%s: unknown config key %q", tr.Path, k)
		}
		if err != nil {
			t.Fatalf("%s: config %s: %v", tr.Path, k, err)
		}
	}
	return c
}

// positiveDuration parses a duration config value, which must be positive
// (as the flags it stands for must).
func positiveDuration(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err == nil && d <= 0 {
		err = fmt.Errorf("%s is not positive", v)
	}
	return d, err
}

// inMemory starts the server in this process over in-memory pipes.
func inMemory(t *testing.T, c config) (*golden.Peer, func()) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	caller, err := parseCaller(c.caller)
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(&mcp.Options{PageSize: c.pageSize, ShutdownGrace: c.grace, Logger: quietLogger(),
		Caller: caller, CompletionRate: c.completionRate,
		InputStateTTL: c.inputStateTTL, ClientRequestTimeout: c.clientRequestTimeout}, t.TempDir(), true)
	conn := transport.NewStream(inR, outW, transport.Options{MaxMessageBytes: c.maxMsg})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), conn) }()
	return golden.NewPeer(inW, outR), func() {
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve returned %v, want nil after EOF", err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("Serve did not return after stdin closed")
		}
	}
}

// binary starts the built cmd/everything over real pipes.
func binary(t *testing.T, c config) (*golden.Peer, func()) {
	cmd := exec.Command(binPath, "-fixtures", "-page-size", strconv.Itoa(c.pageSize),
		"-max-message-bytes", strconv.Itoa(c.maxMsg), "-grace", c.grace.String(), "-watch-interval", "0",
		"-caller", c.caller, "-completion-rate", strconv.Itoa(c.completionRate),
		"-input-state-ttl", c.inputStateTTL.String(), "-client-request-timeout", c.clientRequestTimeout.String())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return golden.NewPeer(stdin, stdout), func() {
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("server exited with %v; stderr:\n%s", err, stderr.String())
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Errorf("server did not exit after stdin closed")
		}
	}
}

func TestGolden(t *testing.T) {
	check := schemaChecker(t)
	for _, path := range transcripts(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		t.Run(name, func(t *testing.T) {
			tr, err := golden.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			c := configOf(t, tr)
			if *update {
				peer, wait := inMemory(t, c)
				o := golden.Record(tr, peer, nil)
				wait()
				tr = o.Rewrite(tr)
				if err := os.WriteFile(path, []byte(tr.Format()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, mode := range []struct {
				name  string
				start func(*testing.T, config) (*golden.Peer, func())
			}{{"memory", inMemory}, {"binary", binary}} {
				t.Run(mode.name, func(t *testing.T) {
					before := leakcheck.Snapshot()
					peer, wait := mode.start(t, c)
					o := golden.Replay(tr, peer, check)
					wait()
					for _, p := range o.Problems {
						t.Error(p)
					}
					if mode.name == "memory" {
						leakcheck.Check(t, before)
					}
				})
			}
		})
	}
}
