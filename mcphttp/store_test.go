package mcphttp_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcphttp"
)

// The total bound evicts the oldest events by append order, whichever
// session they belong to; Forget gives its bytes back to the total; the
// per-session bounds still hold.
func TestMemoryEventStoreTotal(t *testing.T) {
	type step struct {
		session, data string   // append; data "forget" forgets the session
		evicted       []string // the events (session/data) evicted by it
	}
	for _, tc := range []struct {
		name               string
		maxEvents          int
		maxBytes, maxTotal int64
		steps              []step
	}{
		{"oldest first across sessions", 0, 0, 10, []step{
			{"s1", "aaa", nil}, {"s2", "bbb", nil}, {"s1", "ccc", nil},
			{"s2", "dd", []string{"s1/aaa"}},
			{"s3", "eeee", []string{"s2/bbb"}},
			{"s3", "ffff", []string{"s1/ccc"}},
			{"s1", "g", []string{"s2/dd"}},
		}},
		{"an event larger than the total is not held", 0, 0, 4, []step{
			{"s1", "aa", nil}, {"s2", "bbbbb", []string{"s1/aa", "s2/bbbbb"}}, {"s1", "cccc", nil},
		}},
		{"forget frees its bytes", 0, 0, 6, []step{
			{"s1", "aaa", nil}, {"s2", "bbb", nil}, {"s1", "forget", nil},
			{"s2", "ccc", nil}, {"s3", "d", []string{"s2/bbb"}},
		}},
		{"per-session bounds still hold", 2, 5, 100, []step{
			{"s1", "a", nil}, {"s1", "b", nil}, {"s1", "c", []string{"s1/a"}},
			{"s2", "xxxx", nil}, {"s2", "yy", []string{"s2/xxxx"}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mcphttp.NewMemoryEventStore(tc.maxEvents, tc.maxBytes, tc.maxTotal)
			ids := map[string]string{} // session/data -> id
			var order []string         // session/data, appended and not evicted or forgotten
			for i, st := range tc.steps {
				if st.data == "forget" {
					m.Forget(st.session)
					order = slices.DeleteFunc(order, func(k string) bool { return strings.HasPrefix(k, st.session+"/") })
					continue
				}
				id, err := m.Append(st.session, "p1", []byte(st.data))
				if err != nil {
					t.Fatal(err)
				}
				key := st.session + "/" + st.data
				ids[key] = id
				order = append(order, key)
				order = slices.DeleteFunc(order, func(k string) bool { return slices.Contains(st.evicted, k) })
				if total, _, _ := mcphttp.StoreUsage(m); total > tc.maxTotal {
					t.Errorf("step %d: %d bytes held, the bound is %d", i, total, tc.maxTotal)
				}
				for k, id := range ids {
					session, _, _ := strings.Cut(k, "/")
					_, err := m.Replay(session, id, func(string, []byte) error { return nil })
					switch want := slices.Contains(order, k); {
					case want && err != nil:
						t.Errorf("step %d: %s should be held: %v", i, k, err)
					case !want && err == nil:
						t.Errorf("step %d: %s should be evicted", i, k)
					}
				}
			}
		})
	}
}

// Against a plain model, over random appends (empty events among them) and
// Forgets in several sessions: the same events are held, evicted ones get
// ErrEventExpired and forgotten sessions ErrEventUnknown, the total stays
// within its bound after every Append, and the append order never grows
// past twice the events held plus its slack.
func TestMemoryEventStoreModel(t *testing.T) {
	const maxEvents, maxBytes, maxTotal = 5, 40, 100
	type ev struct {
		session, id string
		size        int
	}
	m := mcphttp.NewMemoryEventStore(maxEvents, maxBytes, maxTotal)
	rng := rand.New(rand.NewPCG(1, 2))
	var model []ev                 // held, in append order
	forgotten := map[string]bool{} // sessions Forget dropped, not appended to since
	var all []ev                   // every event appended
	for step := range 5000 {
		session := fmt.Sprintf("s%d", rng.IntN(6))
		if rng.IntN(50) == 0 {
			m.Forget(session)
			model = slices.DeleteFunc(model, func(e ev) bool { return e.session == session })
			all = slices.DeleteFunc(all, func(e ev) bool { return e.session == session })
			forgotten[session] = true
			continue
		}
		delete(forgotten, session)
		size := rng.IntN(25)
		id, err := m.Append(session, "p1", make([]byte, size))
		if err != nil {
			t.Fatal(err)
		}
		model = append(model, ev{session, id, size})
		all = append(all, ev{session, id, size})
		// The session's own bounds, then the total.
		for {
			var n, bytes int
			first := -1
			for i, e := range model {
				if e.session == session {
					if first < 0 {
						first = i
					}
					n++
					bytes += e.size
				}
			}
			if n <= maxEvents && bytes <= maxBytes {
				break
			}
			model = slices.Delete(model, first, first+1)
		}
		for {
			total := 0
			for _, e := range model {
				total += e.size
			}
			if total <= maxTotal {
				break
			}
			model = model[1:]
		}
		total, events, order := mcphttp.StoreUsage(m)
		want := 0
		for _, e := range model {
			want += e.size
		}
		if total != int64(want) || events != len(model) || total > maxTotal {
			t.Fatalf("step %d: the store holds %d events of %d bytes, the model %d of %d (bound %d)", step, events, total, len(model), want, maxTotal)
		}
		if order > 2*events+64 {
			t.Fatalf("step %d: the append order has %d entries for %d events held", step, order, events)
		}
	}
	for _, e := range all {
		_, err := m.Replay(e.session, e.id, func(string, []byte) error { return nil })
		held := slices.Contains(model, e)
		if held && err != nil || !held && !errors.Is(err, mcphttp.ErrEventExpired) {
			t.Errorf("%s %s (held %v): %v", e.session, e.id, held, err)
		}
	}
	for s := range forgotten {
		if _, err := m.Replay(s, "p1-1", nil); !errors.Is(err, mcphttp.ErrEventUnknown) {
			t.Errorf("forgotten session %s: %v", s, err)
		}
	}
}

// Over HTTP: once other sessions' events push a session's out of the
// default store's total (Options.MaxEventStoreBytes), resuming from one of
// them gets the "event evicted" answer, and the session stays valid.
func TestLegacyResumeEvictedByTotal(t *testing.T) {
	f := start(t, newServer(t, progressTool()), &mcphttp.Options{MaxEventStoreBytes: 1000})
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"steps","_meta":{"progressToken":1}}}`
	run := func(sid string) string {
		t.Helper()
		resp := f.post(context.Background(), legacyHeaders(sid), call)
		sse := newSSEReader(t, resp.Body)
		first := sse.nextEvent()
		for range 3 { // two more steps and the response
			sse.nextEvent()
		}
		sse.drain()
		resp.Body.Close()
		return first.id
	}
	a, b := f.initialize(`{}`), f.initialize(`{}`)
	first := run(a)
	if r := readReply(t, f.resumeGet(context.Background(), a, first)); r.status != http.StatusOK {
		t.Fatalf("resuming before the other session ran: %d %s", r.status, r.body)
	}
	for range 3 {
		run(b)
	}
	r := readReply(t, f.resumeGet(context.Background(), a, first))
	if r.status != http.StatusBadRequest || !strings.Contains(r.body, "event evicted") {
		t.Errorf("resuming an event the total evicted: %d %s", r.status, r.body)
	}
	if r := f.postRead(legacyHeaders(a), `{"jsonrpc":"2.0","id":3,"method":"ping"}`); r.status != http.StatusOK {
		t.Errorf("the session after the eviction: %d %s", r.status, r.body)
	}
}
