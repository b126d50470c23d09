package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/peer/golden"
	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/internal/testsupport/syncbuf"
	"github.com/mcpwire/mcpwire/mcptest"
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

// configKeys are the keys a transcript's config may set. Each is the
// command's flag of the same name and takes what the flag takes:
// page-size, max-message-bytes and completion-rate (integers), grace,
// input-state-ttl, client-request-timeout and task-ttl (durations), caller
// (NAME[:SCOPE,...], such as ada:operator).
var configKeys = []string{"page-size", "max-message-bytes", "grace", "caller",
	"completion-rate", "input-state-ttl", "client-request-timeout", "task-ttl"}

// configArgs returns the command line a transcript's config stands for:
// -fixtures; -watch-interval 0, so the watched resource never changes on
// a timer in a transcript (test_trigger_resource_update changes it when a
// transcript says so); -caller "" unless the config names one, so that
// $MCPWIRE_CALLER never applies; and each key as its flag.
func configArgs(t *testing.T, tr *golden.Transcript) []string {
	args := []string{"-fixtures", "-watch-interval", "0"}
	if _, ok := tr.Config["caller"]; !ok {
		args = append(args, "-caller", "")
	}
	for k, v := range tr.Config {
		known := false
		for _, key := range configKeys {
			known = known || k == key
		}
		if !known {
			t.Fatalf("%s: unknown config key %q", tr.Path, k)
		}
		args = append(args, "-"+k, v)
	}
	return args
}

// settingsOf reads a transcript's config as the command reads its flags
// (configArgs): the in-process server is built from the settings the
// command line would give, and a value the command would refuse fails
// the test.
func settingsOf(t *testing.T, tr *golden.Transcript) *settings {
	var usage strings.Builder
	s, err := parseFlags(configArgs(t, tr), &usage)
	if err != nil {
		t.Fatalf("%s: config: %v\n%s", tr.Path, err, usage.String())
	}
	return s
}

// config is a transcript's server settings as the HTTP transcripts'
// harness (http_golden_test.go) takes them.
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
	// taskTTL is how long a task is kept after its last update.
	taskTTL time.Duration
}

// configOf returns a transcript's config, read as settingsOf reads it.
func configOf(t *testing.T, tr *golden.Transcript) config {
	s := settingsOf(t, tr)
	return config{pageSize: s.pageSize, maxMsg: s.maxMsg, grace: s.grace, caller: tr.Config["caller"],
		completionRate: s.completionRate, inputStateTTL: s.inputStateTTL, clientRequestTimeout: s.clientRequestTimeout,
		taskTTL: s.taskTTL}
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

// TestGolden replays every stdio transcript with mcptest.Replay against
// the everything server built in this process from the transcript's
// config (settingsOf), compared exactly (the transcripts name what changes
// between runs with placeholders), with every server line checked against
// the schema of its revision; no goroutine may outlive a transcript. With
// -update (go test ./cmd/everything -run TestGolden -update) each
// transcript is first rewritten from what the server writes, then
// replayed: read every change before keeping it.
func TestGolden(t *testing.T) {
	check := schemaChecker(t)
	for _, path := range transcripts(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		t.Run(name, func(t *testing.T) {
			tr, err := golden.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			s := settingsOf(t, tr)
			replay := func(update bool) {
				before := leakcheck.Snapshot()
				srv := newServer(s.serverOptions(quietLogger()), t.TempDir(), s.fixtures)
				mcptest.Replay(t, srv.Server, path, mcptest.Exact(), mcptest.Update(update),
					mcptest.TransportOptions(s.transportOptions()),
					mcptest.CheckLines(func(l mcptest.ServerLine) error { return check(l.Revision, l.MethodOf, l.Text) }))
				leakcheck.Check(t, before)
			}
			if *update {
				replay(true)
			}
			replay(false)
		})
	}
}

// processTranscripts are the transcripts replayed against the built
// binary as well, over real pipes, for what only the process shows:
// TestGolden covers every transcript's protocol in process, and these add
// the command's own wiring (the config's flags parsed, RunStdio on the
// process's stdin and stdout, the logger on stderr) and how the process
// ends. After stdin closes with calls in flight the process exits with
// status 0 (shutdown-grace, shutdown-timeout); a panic's stack goes to
// stderr while the process keeps serving (panic); a line over
// -max-message-bytes is refused on real pipes (oversize).
var processTranscripts = map[string]string{
	"shutdown-grace":   "",
	"shutdown-timeout": "",
	"panic":            "handler panicked",
	"oversize":         "",
}

// TestGoldenProcess replays processTranscripts against the binary with
// the engine mcptest.Replay uses, and checks that the process exits with
// status 0 and writes to stderr what the transcript says it does.
func TestGoldenProcess(t *testing.T) {
	check := schemaChecker(t)
	for name, stderrHas := range processTranscripts {
		t.Run(name, func(t *testing.T) {
			tr, err := golden.Load(filepath.Join(goldenDir, name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			peer, stderr, wait := startBinary(t, configArgs(t, tr))
			o := golden.Replay(tr, peer, check)
			wait()
			for _, f := range o.Faults {
				t.Errorf("%s:%d: %s", tr.Path, f.Line, f.Msg)
			}
			if !strings.Contains(stderr.String(), stderrHas) {
				t.Errorf("stderr does not say %q:\n%s", stderrHas, stderr.String())
			}
		})
	}
}

// startBinary starts the built cmd/everything with args over real pipes;
// wait fails the test unless it exits with status 0 within ten seconds
// of its stdin closing (it is killed then).
func startBinary(t *testing.T, args []string) (peer *golden.Peer, stderr *syncbuf.Buffer, wait func()) {
	cmd := exec.Command(binPath, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr = &syncbuf.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return golden.NewPeer(stdin, stdout), stderr, func() {
		stdin.Close()
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("server exited with %v; stderr:\n%s", err, stderr.String())
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
			t.Errorf("server did not exit after stdin closed")
		}
	}
}
