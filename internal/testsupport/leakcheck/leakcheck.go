// Package leakcheck finds goroutines that a test left running.
package leakcheck

import (
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// Snapshot records the goroutines running now.
func Snapshot() map[string]bool {
	ids := map[string]bool{}
	for _, g := range stacks() {
		ids[goroutineID(g)] = true
	}
	return ids
}

// Check fails t if goroutines not in before are still running after a short
// settling period. Goroutines of the runtime and the testing package are
// ignored.
func Check(t testing.TB, before map[string]bool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	var leaked []string
	for {
		leaked = leaked[:0]
		for _, g := range stacks() {
			if !before[goroutineID(g)] && !ignorable(g) {
				leaked = append(leaked, g)
			}
		}
		if len(leaked) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(leaked) > 0 {
		sort.Strings(leaked)
		t.Errorf("%d goroutine(s) leaked:\n\n%s", len(leaked), strings.Join(leaked, "\n\n"))
	}
}

func stacks() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	return strings.Split(strings.TrimSpace(string(buf)), "\n\n")
}

// goroutineID returns the "goroutine N" head of a stack.
func goroutineID(stack string) string {
	head, _, _ := strings.Cut(stack, " [")
	return head
}

func ignorable(stack string) bool {
	for _, s := range []string{
		"testing.(*T).Run", "testing.tRunner", "testing.(*M).",
		"runtime.goexit", "created by runtime.gc", "runtime/trace.",
		"signal.signal_recv", "os/signal.loop", "testing.runFuzzing",
	} {
		if strings.Contains(stack, s) && !strings.Contains(stack, "mcpwire/") {
			return true
		}
	}
	return strings.Contains(stack, "leakcheck.stacks")
}

// pending holds the tests CheckAtEnd will check.
var pending sync.Map // testing.TB → bool

// CheckAtEnd checks, once t's later cleanups have run, that no goroutine
// started since its first call for t is left: a helper that starts a
// server calls it before registering the cleanup that stops the server.
// A test that starts several servers is checked once, after the last of
// them stopped; checking each as it stops would count as leaked the
// goroutines the others still running start meanwhile.
func CheckAtEnd(t testing.TB) {
	if _, checked := pending.LoadOrStore(t, true); checked {
		return
	}
	before := Snapshot()
	t.Cleanup(func() {
		pending.Delete(t)
		Check(t, before)
	})
}
