package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/interop/go/internal/harness"
)

// triggerTool changes the watched resource once, so that the server sends
// notifications/resources/updated to every client that follows it. The
// run turns the server's own timer off (-watch-interval 0), so that this
// is the only change.
const triggerTool = "test_trigger_resource_update"

const (
	// subscribeWait bounds each wait for an acknowledgement, an update or a
	// cancellation on the wire.
	subscribeWait = 2 * time.Second
	// endWait bounds the wait for the SDK to end the listen request once
	// unsubscribed. It is generous because the check is whether the SDK
	// ends it at all, not how fast. (mcp-go's HTTP client ends it by
	// cancelling the request's context; the tap once took the failed read
	// that follows for the server's end of the stream, and that, not a slow
	// SDK, was the failure once blamed on time.)
	endWait = 10 * time.Second
	// quietWait is how long the check watches for an update that must not
	// come after unsubscribing.
	quietWait = 300 * time.Millisecond
)

func (x *run) checkSubscribe(ctx context.Context) {
	const check = "subscribe"
	if x.skipUnlistedItem(check, x.resources, watchedURI) {
		return
	}
	if !x.modern && !capabilityFlag(x.serverCapabilities()["resources"], "subscribe") {
		x.r.Fail(check, "the server lists %s but its resources capability lacks subscribe: %s", watchedURI, orAbsent(x.serverCapabilities()["resources"]))
		return
	}
	var delivered atomic.Int64
	mark := x.wire.Len()
	sctx, cancel := x.step(ctx)
	unsubscribe, err := x.sess.Subscribe(sctx, watchedURI, func() { delivered.Add(1) })
	cancel()
	if err != nil {
		x.r.Fail(check, "subscribing to %s: %s: %v", watchedURI, errChain(err), err)
		return
	}
	var how string
	var listen harness.Line // the modern era's subscriptions/listen request
	if x.modern {
		listen, how, err = x.listenAcknowledged(mark)
	} else {
		how, err = x.answered(mark, "resources/subscribe")
	}
	if err != nil {
		x.r.Fail(check, "%v", err)
		return
	}
	_, trigger := x.tools[triggerTool]
	if trigger {
		if err := x.updateArrives(ctx, listen, &delivered); err != nil {
			x.r.Fail(check, "%v", err)
			return
		}
		how += fmt.Sprintf("; %s sent notifications/resources/updated, the SDK delivered it", triggerTool)
	}
	mark = x.wire.Len()
	sctx, cancel = x.step(ctx)
	err = unsubscribe(sctx)
	cancel()
	if err != nil {
		x.r.Fail(check, "unsubscribing: %s: %v", errChain(err), err)
		return
	}
	var unhow string
	if x.modern {
		unhow, err = x.listenEnded(listen)
	} else {
		unhow, err = x.answered(mark, "resources/unsubscribe")
	}
	if err != nil {
		x.r.Fail(check, "%v", err)
		return
	}
	if trigger {
		if err := x.noUpdateAfter(ctx, &delivered); err != nil {
			x.r.Fail(check, "%v", err)
			return
		}
		unhow += ", and no update after it"
	} else {
		unhow += fmt.Sprintf("; the server lists no %s, so no update was triggered", triggerTool)
	}
	x.r.Pass(check, "%s; %s", how, unhow)
}

// capabilityFlag reports whether a capability object has a true flag.
func capabilityFlag(capability json.RawMessage, flag string) bool {
	var c map[string]any
	_ = json.Unmarshal(capability, &c)
	v, _ := c[flag].(bool)
	return v
}

// answered checks that the client sent method with the watched URI after
// mark and the server answered it with a result.
func (x *run) answered(mark int, method string) (string, error) {
	req, ok := x.request(mark, method, func(p json.RawMessage) bool { return paramString(p, "uri") == watchedURI })
	if !ok {
		return "", fmt.Errorf("no %s for %s on the wire", method, watchedURI)
	}
	resp, ok := x.wire.ResponseTo(req.ID)
	switch {
	case !ok:
		return "", fmt.Errorf("no answer to %s", method)
	case resp.IsError:
		return "", fmt.Errorf("%s answered with error %d %q", method, resp.ErrCode, resp.ErrMsg)
	}
	return fmt.Sprintf("%s answered %s", method, resp.Result), nil
}

// listenFilter is the part of a subscriptions/listen request, or of its
// acknowledgement, that names resources.
type listenFilter struct {
	Notifications struct {
		ResourceSubscriptions []string `json:"resourceSubscriptions"`
	} `json:"notifications"`
}

func namesWatched(params json.RawMessage) bool {
	var f listenFilter
	return json.Unmarshal(params, &f) == nil && slices.Contains(f.Notifications.ResourceSubscriptions, watchedURI)
}

// listenAcknowledged finds the subscriptions/listen the SDK opened after
// mark for the watched resource and waits for the server's
// acknowledgement of it, tagged with its id and honouring the resource.
func (x *run) listenAcknowledged(mark int) (harness.Line, string, error) {
	var req harness.Line
	found := waitFor(subscribeWait, func() bool {
		var ok bool
		req, ok = x.request(mark, "subscriptions/listen", namesWatched)
		return ok
	})
	if !found {
		return req, "", fmt.Errorf("no subscriptions/listen naming %s in resourceSubscriptions on the wire", watchedURI)
	}
	id := canonical(json.RawMessage(req.ID))
	var acks []harness.Line
	waitFor(subscribeWait, func() bool {
		acks = x.notifications(mark, "notifications/subscriptions/acknowledged", func(p json.RawMessage) bool { return subscriptionID(p) == id })
		return len(acks) > 0
	})
	if len(acks) == 0 {
		return req, "", fmt.Errorf("no notifications/subscriptions/acknowledged tagged with subscriptionId %s within %v", id, subscribeWait)
	}
	if !namesWatched(acks[0].Params) {
		return req, "", fmt.Errorf("the acknowledgement does not honour %s: %s", watchedURI, acks[0].Head)
	}
	if resp, ok := x.wire.ResponseTo(req.ID); ok {
		return req, "", fmt.Errorf("the server answered the open listen request: %s", resp.Head)
	}
	return req, fmt.Sprintf("subscriptions/listen (id %s) acknowledged with resourceSubscriptions [%s]", id, watchedURI), nil
}

// listenEnded checks that the SDK cancelled the listen request and that
// the server, as for any cancelled request, sent no answer.
func (x *run) listenEnded(listen harness.Line) (string, error) {
	var c cancellation
	if !waitFor(endWait, func() bool { var ok bool; c, ok = x.cancellation(listen); return ok }) {
		return "", fmt.Errorf("the SDK sent no notifications/cancelled for the listen request %s within %v of unsubscribing", listen.ID, endWait)
	}
	time.Sleep(quietWait)
	if resp, ok := x.wire.ResponseTo(listen.ID); ok {
		return "", fmt.Errorf("the server answered the cancelled listen request: %s", resp.Head)
	}
	if c.how == "notifications/cancelled" {
		return "unsubscribing sent notifications/cancelled for the listen request, which the server left unanswered", nil
	}
	return "unsubscribing ended the listen request by " + c.how + ", and the server sent no answer before", nil
}

// triggerUpdate calls the trigger tool.
func (x *run) triggerUpdate(ctx context.Context) error {
	res, err := x.call(ctx, triggerTool, map[string]any{})
	switch {
	case err != nil:
		return fmt.Errorf("%s: %v", triggerTool, err)
	case res.IsError:
		return fmt.Errorf("%s: isError: %s", triggerTool, firstText(res))
	}
	return nil
}

// isWatchedUpdate matches a notifications/resources/updated for the watched
// resource.
func isWatchedUpdate(p json.RawMessage) bool { return paramString(p, "uri") == watchedURI }

// updateArrives triggers an update and checks that the server sent it (on
// the listen stream, in the modern era) and the SDK delivered it.
func (x *run) updateArrives(ctx context.Context, listen harness.Line, delivered *atomic.Int64) error {
	mark := x.wire.Len()
	if err := x.triggerUpdate(ctx); err != nil {
		return err
	}
	var updates []harness.Line
	waitFor(subscribeWait, func() bool {
		updates = x.notifications(mark, "notifications/resources/updated", isWatchedUpdate)
		return len(updates) > 0 && delivered.Load() > 0
	})
	switch {
	case len(updates) == 0:
		return fmt.Errorf("no notifications/resources/updated for %s within %v of %s", watchedURI, subscribeWait, triggerTool)
	case delivered.Load() == 0:
		return fmt.Errorf("the server sent %s, the SDK did not deliver it within %v", updates[0].Head, subscribeWait)
	case len(updates) > 1:
		return fmt.Errorf("%d notifications/resources/updated for one change: %s", len(updates), joinHeads(updates))
	}
	if x.modern {
		if id := subscriptionID(updates[0].Params); id != canonical(json.RawMessage(listen.ID)) {
			return fmt.Errorf("the update is tagged with subscriptionId %q, want the listen request's id %s: %s", id, listen.ID, updates[0].Head)
		}
	}
	return nil
}

// noUpdateAfter triggers an update after unsubscribing and checks that
// none arrives.
func (x *run) noUpdateAfter(ctx context.Context, delivered *atomic.Int64) error {
	mark := x.wire.Len()
	before := delivered.Load()
	if err := x.triggerUpdate(ctx); err != nil {
		return err
	}
	time.Sleep(quietWait)
	if updates := x.notifications(mark, "notifications/resources/updated", isWatchedUpdate); len(updates) > 0 {
		return fmt.Errorf("after unsubscribing the server still sent %s", joinHeads(updates))
	}
	if n := delivered.Load() - before; n > 0 {
		return fmt.Errorf("after unsubscribing the SDK delivered %d more updates", n)
	}
	return nil
}

func joinHeads(lines []harness.Line) string {
	var heads []string
	for _, l := range lines {
		heads = append(heads, l.Head)
	}
	return strings.Join(heads, " | ")
}
