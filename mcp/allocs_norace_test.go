//go:build !race

package mcp

import "testing"

// toolsCallAllocations is the allocation budget of one tools/call echo
// through the server (BENCHMARKS.md): decode, route, worker, validation,
// typed handler, result check and encoding, response line.
const toolsCallAllocations = 11

// TestToolsCallAllocations holds the budget: a change that allocates once
// more per call fails here, not only in a benchmark someone must read.
// (Not under -race, which allocates for its own bookkeeping.)
func TestToolsCallAllocations(t *testing.T) {
	_, call := echoSession(t)
	call() // the first call starts the worker and warms the caches
	if n := testing.AllocsPerRun(2000, call); n > toolsCallAllocations {
		t.Errorf("a tools/call echo allocates %.1f times, want at most %d", n, toolsCallAllocations)
	}
}
