package mcp

import "github.com/mcpwire/mcpwire/internal/callerkey"

// A call runs in one of MaxConcurrentCalls slots: a worker's, one claimed
// by a call run on its caller's goroutine, or, on an endpoint that callers
// share, one of its fairSlots. A task's handler goes on after the call
// that started it (or the tasks/update that resumed it) is answered, and
// it runs under the same bound as calls:
//
//   - On an endpoint that callers share (HTTP), a tools/call that starts a
//     task takes no slot (scheduler.submitFair sees it is one), and its
//     handler takes a slot of its own (taskRun.invoke), waiting its turn
//     among its caller's calls when none is free: the task is created, and
//     acknowledged, whether or not its handler could start yet. A resumed
//     handler waits for a slot the same way.
//   - On a connection (stdio), the handler takes over the slot of the
//     call it began with (adoptSlot): a tools/call that would start a task
//     while every slot is taken waits for one as any call does.

// giveUpSlot marks the call as holding no slot, so that its end does not
// give one back, and reports whether it held one.
func (c *call) giveUpSlot() (held bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	held = !c.slotless
	c.slotless = true
	return held
}

// holdsSlot reports whether the call holds a slot its end must give back.
func (c *call) holdsSlot() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.slotless
}

// yieldSlot gives back now the slot a call holds on an endpoint that
// callers share, if it holds one: a tools/call that starts a task, which
// scheduler.submitFair did not see as one (its tool gained task support meanwhile).
func (c *call) yieldSlot() {
	if fair := c.ss.sched.fair; fair != nil && c.giveUpSlot() {
		fair.release(callerkey.Of(c.ctx))
	}
}

// adoptSlot hands the call's slot to a task handler that goes on after
// the call is answered, on a connection, and returns what gives it back
// (once, however often it is called; see scheduler.adopt).
func (c *call) adoptSlot() (release func()) {
	c.giveUpSlot()
	return c.ss.sched.adopt()
}
