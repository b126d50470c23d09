package task_test

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/task"
)

// A store keeps a task's record from its creation to its end; package mcp
// does this for every tools/call that becomes a task.
func Example() {
	ctx := context.Background()
	store := task.NewMemory(0)
	now := time.Now()
	t := &task.Task{ID: task.NewID(), Caller: "sub:ada", Status: task.Working, CreatedAt: now, UpdatedAt: now, TTL: time.Hour, Tool: "slow_compute"}
	// ada may hold 100 live tasks at most.
	if err := store.Create(ctx, t, 100); err != nil {
		panic(err)
	}
	done, _ := store.Update(ctx, t.ID, func(t *task.Task) error {
		t.Status = task.Completed
		t.Result = []byte(`{"content":[{"type":"text","text":"done"}]}`)
		return nil
	})
	fmt.Println(done.Status, done.Status.Terminal(), string(done.Result))
	_, err := store.Get(ctx, "an id nobody was given")
	fmt.Println(err)
	// Output:
	// completed true {"content":[{"type":"text","text":"done"}]}
	// task: not found
}
