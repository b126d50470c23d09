package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode == modeHTTP {
		os.Exit(runFakeHTTPServer())
	} else if mode != "" {
		runFakeServer(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeConfig is a small run against the test binary acting as a server.
func fakeConfig(t *testing.T, mode string) config {
	t.Setenv(fakeEnv, mode)
	return config{
		name:     "fake-" + mode,
		argv:     []string{os.Args[0]},
		calls:    1000,
		depth:    16,
		warmup:   10,
		phases:   map[string]bool{"seq": true, "pipe": true, "big": true},
		bigSizes: []int{1 << 10, 256 << 10}, // 256 KiB: beyond bufio.Scanner's 64 KiB line limit
		timeout:  10 * time.Second,
		exitWait: 5 * time.Second,
		stderr:   io.Discard,
	}
}

func TestRunAgainstFakeServer(t *testing.T) {
	tests := []struct {
		mode         string
		wantFailures int
		wantProblem  string // substring of some problem; "" wants none
		wantBigOK    []bool
	}{
		{modeEcho, 0, "", []bool{true, true}},
		{modeCorrupt, 1, "integrity", []bool{true, false}},
		// 10 warm-up calls, then calls 11..1010 (seq) and 1011..2010
		// (pipe); the multiples of 10 from 30 to 2010 fail.
		{modeIsError, 199, "isError", []bool{true, true}},
		// The multiples of 7 from 21 to 2010: 287 - 2.
		{modeRPCError, 285, "json-rpc error -32603", []bool{true, true}},
		{modeSlowExit, 0, "to exit after stdin closed", []bool{true, true}},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			rep, err := run(fakeConfig(t, tc.mode))
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			if rep.Failures != tc.wantFailures {
				t.Errorf("Failures = %d, want %d; problems %q", rep.Failures, tc.wantFailures, rep.Problems)
			}
			if got := strings.Join(rep.Problems, "\n"); !strings.Contains(got, tc.wantProblem) || (tc.wantProblem == "") != (got == "") {
				t.Errorf("Problems = %q, want one containing %q", rep.Problems, tc.wantProblem)
			}
			for i, want := range tc.wantBigOK {
				if i >= len(rep.Big) || rep.Big[i].OK != want {
					t.Errorf("Big[%d] ok != %v: %+v", i, want, rep.Big)
				}
			}
			checkFigures(t, rep)
		})
	}
}

// checkFigures checks the figures every run against the fake must have.
func checkFigures(t *testing.T, rep *Report) {
	t.Helper()
	if rep.Server.Name != "fake" || rep.Server.ProtocolVersion != protocolVersion {
		t.Errorf("Server = %+v", rep.Server)
	}
	for _, x := range []*RateResult{rep.Sequential, rep.Pipelined} {
		if x == nil {
			t.Fatal("missing rate phase")
		}
		if x.OK+x.Failures != x.Calls || x.CallsPerSec <= 0 || x.P50US <= 0 || x.P99US < x.P50US {
			t.Errorf("implausible rate result %+v", x)
		}
	}
	if rep.PeakRSSBytes <= 0 {
		t.Errorf("PeakRSSBytes = %d", rep.PeakRSSBytes)
	}
	for _, b := range rep.Big {
		if b.PeakRSSBytes <= 0 || b.PeakRSSRatio <= 0 {
			t.Errorf("big echo has no RSS figures: %+v", b)
		}
	}
	want := Anomalies{ServerRequests: 1, Notifications: 1}
	if rep.Anomalies != want {
		t.Errorf("Anomalies = %+v, want %+v", rep.Anomalies, want)
	}
	if rep.Exit.Killed {
		t.Errorf("server was killed: %+v", rep.Exit)
	}
}

func TestRunServerDies(t *testing.T) {
	cfg := fakeConfig(t, modeDie)
	start := time.Now()
	rep, err := run(cfg)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("run took %v after the server died", time.Since(start))
	}
	if rep.Sequential.OK != 90 || rep.Sequential.FirstError != errServerGone.Error() {
		t.Errorf("Sequential = %+v, want 90 ok then %q", rep.Sequential, errServerGone)
	}
	if rep.Pipelined.OK != 0 || rep.Pipelined.Failures == 0 {
		t.Errorf("Pipelined = %+v, want only failures", rep.Pipelined)
	}
	if rep.Exit.Error == "" {
		t.Errorf("Exit = %+v, want the exit status 3 reported", rep.Exit)
	}
}

func TestMainErrJSONAndCompare(t *testing.T) {
	t.Setenv(fakeEnv, modeEcho)
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"alpha", "beta"} {
		var out, errOut bytes.Buffer
		args := []string{"-json", "-n", "300", "-warmup", "0", "-big-sizes", "64KiB", "-name", name, "--", os.Args[0]}
		if code := mainErr(args, &out, &errOut); code != 0 {
			t.Fatalf("mainErr(%q) = %d, stderr %s", args, code, errOut.String())
		}
		var rep Report
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("-json output does not decode: %v\n%s", err, out.String())
		}
		if rep.Name != name || rep.Pipelined.OK != 300 || len(rep.Big) != 1 || rep.Big[0].Bytes != 64<<10 {
			t.Fatalf("report = %+v", rep)
		}
		p := filepath.Join(dir, name+".json")
		if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	var out, errOut bytes.Buffer
	if code := mainErr(append([]string{"-compare"}, paths...), &out, &errOut); code != 0 {
		t.Fatalf("compare = %d, stderr %s", code, errOut.String())
	}
	for _, want := range []string{"alpha/beta", "pipelined calls/s", "sequential p50 µs", "largest echo ms", "/ message size"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("compare output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestMainErrUsage(t *testing.T) {
	tests := [][]string{
		{},
		{"-phases", "seq,bogus", "--", "true"},
		{"-big-sizes", "1XB", "--", "true"},
		{"-n", "0", "--", "true"},
		{"-compare"},
	}
	for _, args := range tests {
		if code := mainErr(args, io.Discard, io.Discard); code != 2 {
			t.Errorf("mainErr(%q) = %d, want 2", args, code)
		}
	}
}

func TestRunHandshakeFailure(t *testing.T) {
	cfg := fakeConfig(t, modeEcho)
	cfg.argv = []string{"true"} // exits at once without answering
	if _, err := run(cfg); err == nil {
		t.Fatal("run against a server that never answers: want error")
	}
}
