package storetest_test

import (
	"testing"

	"github.com/mcpwire/mcpwire/task"
	"github.com/mcpwire/mcpwire/task/storetest"
)

// The in-memory store passes the conformance table on the real clock
// (task/memory_test.go runs the same table on a fake one).
func TestMemory(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(_ *testing.T, max int) task.Store { return task.NewMemory(max) })
}
