package scenario

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// progressSteps is how many steps the progress check asks slow for.
const progressSteps = 5

func (x *run) checkProgress(ctx context.Context) {
	ctx, cancel := x.step(ctx)
	defer cancel()
	mark := x.wire.Len()
	var mu sync.Mutex
	var got []Progress
	returned := false
	late := 0 // callbacks that ran after CallTool returned
	res, err := x.sess.CallTool(ctx, "slow", map[string]any{"steps": progressSteps, "delay_ms": 20}, func(p Progress) {
		mu.Lock()
		got = append(got, p)
		if returned {
			late++
		}
		mu.Unlock()
	})
	mu.Lock()
	returned = true
	mu.Unlock()
	if err != nil {
		x.r.Fail("progress", "%v", err)
		return
	}
	if res.IsError {
		x.r.Fail("progress", "isError: %s", firstText(res))
		return
	}
	time.Sleep(100 * time.Millisecond) // let SDK callbacks still in flight land
	mu.Lock()
	client := append([]Progress(nil), got...)
	lateCallbacks := late
	mu.Unlock()
	if err := x.progressProblem(mark, client); err != nil {
		x.r.Fail("progress", "%v", err)
		return
	}
	order := "all before the call returned"
	if lateCallbacks > 0 {
		order = fmt.Sprintf("%d of them only after the call returned", lateCallbacks)
	}
	x.r.Pass("progress", "%d notifications on the wire, increasing, all before the result; the SDK delivered all %d, %s", progressSteps, len(client), order)
}

// progressProblem checks the progress of the slow call made after mark, on
// the wire and as the client saw it.
func (x *run) progressProblem(mark int, client []Progress) error {
	req, ok := x.toolCall(mark, "slow")
	if !ok {
		return errors.New("no tools/call for slow on the wire")
	}
	token := progressToken(req)
	if token == "" {
		return fmt.Errorf("the SDK sent no progressToken: %s", req.Head)
	}
	resp, ok := x.wire.ResponseTo(req.ID)
	if !ok {
		return errors.New("no response on the wire")
	}
	wire := x.progressFor(token)
	if len(wire) != progressSteps {
		return fmt.Errorf("the server sent %d progress notifications for token %s, want %d", len(wire), token, progressSteps)
	}
	for i, p := range wire {
		if p.line.Seq > resp.Seq {
			return fmt.Errorf("progress %d (%v) came after the result", i+1, p.progress)
		}
		if i > 0 && p.progress <= wire[i-1].progress {
			return fmt.Errorf("progress went from %v to %v", wire[i-1].progress, p.progress)
		}
	}
	if len(client) != len(wire) {
		return fmt.Errorf("the server sent %d progress notifications, the SDK delivered %d", len(wire), len(client))
	}
	for i := 1; i < len(client); i++ {
		if client[i].Progress <= client[i-1].Progress {
			return fmt.Errorf("the SDK delivered progress %v after %v", client[i].Progress, client[i-1].Progress)
		}
	}
	return nil
}
