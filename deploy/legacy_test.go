//go:build deploy

package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// legacyReport is what the legacy sessions saw.
type legacyReport struct {
	sessions, requests, elicited int
	sticky                       bool
	byInstance                   map[string]int
}

// legacy opens legacySessions sessions through nginx, ten at a time. Each
// must stay on the instance that answered its initialize (its session id
// names it), and each makes an elicitation round trip: the server's
// elicitation/create arrives on the call's event stream, and the answer,
// POSTed back through nginx, must reach the same instance.
func legacy(t *testing.T, ctx context.Context, d *deployment) *legacyReport {
	rep := &legacyReport{sticky: true, byInstance: map[string]int{}}
	byAddr := map[string]string{}
	for _, in := range d.instances {
		byAddr[in.Addr] = in.Name
	}
	c := newClient(d.nginxURL, 16)
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 10)
	for s := range legacySessions {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			n, ups, elicited, err := legacySession(ctx, c, s)
			mu.Lock()
			defer mu.Unlock()
			rep.requests += n
			if err != nil {
				t.Errorf("session %d: %v", s, err)
				return
			}
			rep.sessions++
			if elicited {
				rep.elicited++
			}
			first := ups[0]
			for _, u := range ups {
				if u != first {
					rep.sticky = false
					t.Errorf("session %d moved from %s to %s", s, first, u)
				}
			}
			rep.byInstance[byAddr[first]]++
		}()
	}
	wg.Wait()
	if rep.sessions != legacySessions || rep.elicited != legacySessions {
		t.Errorf("%d of %d sessions completed, %d elicitation round trips", rep.sessions, legacySessions, rep.elicited)
	}
	for _, in := range d.instances {
		if rep.byInstance[in.Name] == 0 {
			t.Errorf("no legacy session landed on %s: %v", in.Name, rep.byInstance)
		}
	}
	return rep
}

// legacySession runs one session: initialize, initialized, a call, an
// elicitation round trip, DELETE. It returns the requests sent, the
// instance that answered each POST, and whether the elicitation worked.
func legacySession(ctx context.Context, c *client, s int) (int, []string, bool, error) {
	var ups []string
	n := 0
	init := request(0, "initialize", map[string]any{"protocolVersion": legacyVersion,
		"capabilities": map[string]any{"elicitation": map[string]any{}}, "clientInfo": map[string]any{"name": "deploy-test", "version": "1"}})
	a, err := c.post(ctx, legacyVersion, "", "", "", init, nil)
	n++
	if err != nil || a.status != http.StatusOK || a.session == "" || a.response() == nil || a.response().Error != nil {
		return n, nil, false, fmt.Errorf("initialize: %v, HTTP %d, session %q", err, a.status, a.session)
	}
	sid := a.session
	ups = append(ups, a.upstream)
	if !strings.Contains(sid, ".") {
		return n, ups, false, fmt.Errorf("session id %q names no instance", sid)
	}
	note, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	if a, err = c.post(ctx, legacyVersion, sid, "", "", note, nil); err != nil || a.status != http.StatusAccepted {
		return n, ups, false, fmt.Errorf("initialized: %v, HTTP %d", err, statusOf(a))
	}
	n++
	ups = append(ups, a.upstream)
	a, err = c.post(ctx, legacyVersion, sid, "", "", request(1, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": fmt.Sprint("session ", s)}}), nil)
	n++
	if err != nil || a.response() == nil || !strings.Contains(string(a.response().Result), fmt.Sprintf("session %d", s)) {
		return n, ups, false, fmt.Errorf("echo: %v, HTTP %d", err, statusOf(a))
	}
	ups = append(ups, a.upstream)
	// The elicitation: answer the server's request from inside the stream.
	var answerErr error
	var answerUp string
	call := request(2, "tools/call", map[string]any{"name": "test_elicitation", "arguments": map[string]any{"message": "who are you?"}})
	a, err = c.post(ctx, legacyVersion, sid, "", "", call, func(m message) {
		if m.Method != "elicitation/create" {
			return
		}
		reply, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID,
			"result": map[string]any{"action": "accept", "content": map[string]any{"username": fmt.Sprint("user", s), "email": fmt.Sprintf("u%d@example.com", s)}}})
		r, err := c.post(ctx, legacyVersion, sid, "", "", reply, nil)
		n++
		switch {
		case err != nil:
			answerErr = err
		case r.status != http.StatusAccepted:
			answerErr = fmt.Errorf("the answer got HTTP %d", r.status)
		default:
			answerUp = r.upstream
		}
	})
	n++
	if err != nil || answerErr != nil {
		return n, ups, false, fmt.Errorf("elicitation: %v %v", err, answerErr)
	}
	ups = append(ups, a.upstream, answerUp)
	elicited := a.response() != nil && strings.Contains(string(a.response().Result), fmt.Sprintf("user%d", s))
	if !elicited {
		return n, ups, false, fmt.Errorf("elicitation result: %+v", a.response())
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodDelete, c.url, nil)
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("MCP-Protocol-Version", legacyVersion)
	if resp, err := c.hc.Do(req); err == nil {
		resp.Body.Close()
		ups = append(ups, resp.Header.Get("X-Mcp-Upstream"))
	}
	n++
	return n, ups, true, nil
}

// statusOf is a's status, 0 when there is no answer.
func statusOf(a *answer) int {
	if a == nil {
		return 0
	}
	return a.status
}
