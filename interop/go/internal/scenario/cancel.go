package scenario

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// The cancel check asks slow for cancelSteps steps of cancelDelay each, far
// longer than the check waits, and cancels after the first progress.
const (
	cancelSteps = 100
	cancelDelay = 40 * time.Millisecond
	// cancelSettle is how long the check watches the wire after cancelling.
	cancelSettle = 600 * time.Millisecond
	// cancelSlack is how long after the cancel reached the server a progress
	// notification already under way may still arrive.
	cancelSlack = 5 * cancelDelay
)

func (x *run) checkCancel(ctx context.Context) {
	mark := x.wire.Len()
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	first := make(chan struct{})
	var once sync.Once
	done := make(chan error, 1)
	go func() {
		_, err := x.sess.CallTool(callCtx, "slow", map[string]any{"steps": cancelSteps, "delay_ms": cancelDelay.Milliseconds()}, func(Progress) {
			once.Do(func() { close(first) })
		})
		done <- err
	}()
	select {
	case <-first:
	case err := <-done:
		x.r.Fail("cancel", "slow ended before it was cancelled: %v", err)
		return
	case <-time.After(5 * time.Second):
		x.r.Fail("cancel", "no progress within 5s")
		return
	}
	cancelAt := time.Now()
	cancel()
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Second):
		x.r.Fail("cancel", "the SDK call had not returned 2s after cancelling")
		return
	}
	returned := time.Since(cancelAt)
	if err == nil {
		x.r.Fail("cancel", "the SDK returned a result for a cancelled call")
		return
	}
	if !errors.Is(err, context.Canceled) {
		x.r.Fail("cancel", "the SDK's error is no context.Canceled: %s: %v", errChain(err), err)
		return
	}
	time.Sleep(cancelSettle)
	how, problem := x.cancelProblem(mark)
	if problem != nil {
		x.r.Fail("cancel", "%v", problem)
		return
	}
	after, herr := x.call(ctx, "echo", map[string]any{"text": "after cancel"})
	if herr != nil || after.IsError || firstText(after) != "after cancel" {
		x.r.Fail("cancel", "the next call failed: %v %v", herr, after)
		return
	}
	seen := "server stopped, sent no response"
	if how != "notifications/cancelled" {
		seen = "no response and no late progress before the stream closed (what the server does after is off the wire)"
	}
	x.r.Pass("cancel", "SDK returned %s (%v) after %.1fms, cancelling by %s; %s; next call works", errChain(err), err, float64(returned.Microseconds())/1000, how, seen)
}

// cancelProblem checks the wire after a cancelled slow call made after
// mark, and says how the client cancelled it.
func (x *run) cancelProblem(mark int) (string, error) {
	req, ok := x.toolCall(mark, "slow")
	if !ok {
		return "", errors.New("no tools/call for slow on the wire")
	}
	cancelled, ok := x.cancellation(req)
	if !ok {
		if req.Exchange > 0 {
			return "", fmt.Errorf("the client sent no notifications/cancelled for request %s and kept its response stream open", req.ID)
		}
		return "", fmt.Errorf("the client sent no notifications/cancelled for request %s", req.ID)
	}
	if resp, ok := x.wire.ResponseTo(req.ID); ok {
		return "", fmt.Errorf("the server answered the cancelled request: %s", resp.Head)
	}
	late := 0
	for _, p := range x.progressFor(progressToken(req)) {
		if p.line.At.After(cancelled.at.Add(cancelSlack)) {
			late++
		}
	}
	if late > 0 {
		return "", fmt.Errorf("the server sent %d progress notifications more than %v after the cancel", late, cancelSlack)
	}
	return cancelled.how, nil
}
