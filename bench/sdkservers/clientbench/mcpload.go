package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"
)

// loadFigures are cmd/mcpload's figures in one round: its conc phase
// against a fresh "SERVER -http 127.0.0.1:0".
type loadFigures struct {
	concRate float64       // concurrent calls per second
	concP50  time.Duration // concurrent call latency, median
}

// runMCPLoad runs the mcpload binary over Streamable HTTP against a server
// it starts itself (-http), in its modern era (2026-07-28, a stateless
// POST per call), with the concurrent phase alone: p.concurrent calls from
// p.workers callers at once, each on a keep-alive connection of its own,
// after p.warmup sequential calls. That is the nearest of its modes to the
// clients' concurrent phase (p.workers goroutines on one http.Client).
func runMCPLoad(ctx context.Context, bin, server string, p plan) (loadFigures, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-http", "-json", "-era", "modern", "-phases", "conc",
		"-n", strconv.Itoa(p.concurrent), "-depth", strconv.Itoa(p.workers),
		"-warmup", strconv.Itoa(p.warmup), "-stderr", os.DevNull,
		"--", server, "-http", "127.0.0.1:0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run() // exit status 1 flags a problem; the report says which
	var rep struct {
		Concurrent *struct {
			OK          int     `json:"ok"`
			Failures    int     `json:"failures"`
			CallsPerSec float64 `json:"calls_per_sec"`
			P50US       float64 `json:"p50_us"`
		} `json:"concurrent"`
		Problems []string `json:"problems"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || rep.Concurrent == nil {
		return loadFigures{}, fmt.Errorf("mcpload: %v, no report (%v): %.500s", runErr, err, stderr.Bytes())
	}
	c := rep.Concurrent
	if c.Failures > 0 || c.OK == 0 {
		return loadFigures{}, fmt.Errorf("mcpload: %d of its calls failed; problems: %q", c.Failures, rep.Problems)
	}
	if len(rep.Problems) > 0 {
		fmt.Fprintf(os.Stderr, "clientbench: mcpload flagged: %q\n", rep.Problems)
	}
	return loadFigures{concRate: c.CallsPerSec,
		concP50: time.Duration(c.P50US * float64(time.Microsecond))}, nil
}
