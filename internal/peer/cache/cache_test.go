package cache

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// clock is a settable test clock.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newCache(max int) (*Cache, *clock) {
	clk := &clock{t: time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)}
	return &Cache{Max: max, Now: clk.now}, clk
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

const listResult = `{"resultType":"complete","tools":[],"ttlMs":1000,"cacheScope":"public"}`

// Put keeps exactly the results the Caching rules allow.
func TestPutRules(t *testing.T) {
	for _, tt := range []struct {
		name, method, params, result string
		want                         bool
	}{
		{"public list", "tools/list", `{}`, listResult, true},
		{"no params", "tools/list", ``, listResult, true},
		{"private read", "resources/read", `{"uri":"a://b"}`, `{"contents":[],"ttlMs":5,"cacheScope":"private"}`, true},
		{"discover", "server/discover", `{"_meta":{"x":1}}`, `{"resultType":"complete","ttlMs":60000,"cacheScope":"public"}`, true},
		{"not a cacheable method", "tools/call", `{"name":"x"}`, listResult, false},
		{"input_required", "resources/read", `{"uri":"a://b"}`, `{"resultType":"input_required","ttlMs":1000,"cacheScope":"public"}`, false},
		{"a retry with inputResponses", "resources/read", `{"uri":"a://b","inputResponses":{}}`, listResult, false},
		{"a retry with requestState", "tools/list", `{"requestState":"s"}`, listResult, false},
		{"ttl 0", "tools/list", `{}`, `{"ttlMs":0,"cacheScope":"public"}`, false},
		{"ttl missing", "tools/list", `{}`, `{"cacheScope":"public"}`, false},
		{"ttl negative", "tools/list", `{}`, `{"ttlMs":-5,"cacheScope":"public"}`, false},
		{"ttl fractional", "tools/list", `{}`, `{"ttlMs":1.5,"cacheScope":"public"}`, false},
		{"ttl a string", "tools/list", `{}`, `{"ttlMs":"1000","cacheScope":"public"}`, false},
		{"scope missing", "tools/list", `{}`, `{"ttlMs":1000}`, false},
		{"scope unknown", "tools/list", `{}`, `{"ttlMs":1000,"cacheScope":"shared"}`, false},
		{"result not an object", "tools/list", `{}`, `[1]`, false},
		{"params not an object", "tools/list", `[1]`, listResult, false},
	} {
		c, _ := newCache(0)
		if got := c.Put(tt.method, raw(tt.params), "alice", raw(tt.result)); got != tt.want {
			t.Errorf("%s: Put = %v, want %v", tt.name, got, tt.want)
		}
		if _, hit := c.Get(tt.method, raw(tt.params), "alice"); hit != tt.want {
			t.Errorf("%s: Get hit = %v, want %v", tt.name, hit, tt.want)
		}
	}
}

// A result lasts its ttlMs, a day at most.
func TestExpiry(t *testing.T) {
	c, clk := newCache(0)
	c.Put("tools/list", nil, "", raw(listResult))
	clk.advance(999 * time.Millisecond)
	if got, hit := c.Get("tools/list", nil, ""); !hit || string(got) != listResult {
		t.Fatalf("before the ttl: %s, %v", got, hit)
	}
	clk.advance(time.Millisecond)
	if _, hit := c.Get("tools/list", nil, ""); hit {
		t.Error("a result is served at its ttl")
	}
	c.Put("tools/list", nil, "", raw(`{"ttlMs":9000000000000000000,"cacheScope":"public"}`))
	clk.advance(24*time.Hour - time.Millisecond)
	if _, hit := c.Get("tools/list", nil, ""); !hit {
		t.Error("a huge ttl is not kept for a day")
	}
	clk.advance(time.Millisecond)
	if _, hit := c.Get("tools/list", nil, ""); hit {
		t.Error("a huge ttl lasts more than a day")
	}
}

// Keys: params as JSON values without _meta; private results per
// principal, public ones for all.
func TestKeys(t *testing.T) {
	c, _ := newCache(0)
	c.Put("resources/read", raw(`{"uri":"a://1","_meta":{"k":1}}`), "alice", raw(`{"ttlMs":1000,"cacheScope":"private"}`))
	c.Put("tools/list", raw(`{"cursor":"12345678901234567891","x":{"b":1,"a":2}}`), "alice", raw(listResult))
	for _, tt := range []struct {
		method, params, principal string
		want                      bool
	}{
		{"resources/read", `{ "uri" : "a://1" }`, "alice", true},
		{"resources/read", `{"uri":"a://1","_meta":{"other":true}}`, "alice", true},
		{"resources/read", `{"uri":"a://1"}`, "bob", false}, // private to alice
		{"resources/read", `{"uri":"a://2"}`, "alice", false},
		{"tools/list", `{"x":{"a":2,"b":1},"cursor":"12345678901234567891"}`, "bob", true}, // public
		{"tools/list", `{"x":{"a":2,"b":1},"cursor":"12345678901234567892"}`, "bob", false},
		{"tools/list", `{}`, "alice", false},
		{"prompts/list", `{"x":{"a":2,"b":1},"cursor":"12345678901234567891"}`, "alice", false},
	} {
		if _, hit := c.Get(tt.method, raw(tt.params), tt.principal); hit != tt.want {
			t.Errorf("Get(%s, %s, %s) hit = %v, want %v", tt.method, tt.params, tt.principal, hit, tt.want)
		}
	}
}

// Notifications drop what they make stale, and nothing else.
func TestNotify(t *testing.T) {
	c, _ := newCache(0)
	fill := func() {
		for _, m := range []string{"tools/list", "prompts/list", "resources/list", "resources/templates/list", "server/discover"} {
			c.Put(m, nil, "", raw(listResult))
		}
		c.Put("resources/read", raw(`{"uri":"a://1"}`), "", raw(listResult))
		c.Put("resources/read", raw(`{"uri":"a://2"}`), "", raw(listResult))
	}
	for _, tt := range []struct {
		method, params string
		gone           []string
	}{
		{"notifications/tools/list_changed", ``, []string{"tools/list"}},
		{"notifications/prompts/list_changed", ``, []string{"prompts/list"}},
		{"notifications/resources/list_changed", ``, []string{"resources/list", "resources/templates/list"}},
		{"notifications/resources/updated", `{"uri":"a://1"}`, []string{"resources/read a://1"}},
		{"notifications/resources/updated", `garbage`, nil},
		{"notifications/message", `{}`, nil},
	} {
		c.Invalidate("")
		fill()
		c.Notify(tt.method, raw(tt.params))
		for _, probe := range []struct{ name, method, params string }{
			{"tools/list", "tools/list", ``}, {"prompts/list", "prompts/list", ``},
			{"resources/list", "resources/list", ``}, {"resources/templates/list", "resources/templates/list", ``},
			{"server/discover", "server/discover", ``},
			{"resources/read a://1", "resources/read", `{"uri":"a://1"}`}, {"resources/read a://2", "resources/read", `{"uri":"a://2"}`},
		} {
			want := true
			for _, g := range tt.gone {
				want = want && g != probe.name
			}
			if _, hit := c.Get(probe.method, raw(probe.params), ""); hit != want {
				t.Errorf("after %s %s: %s kept = %v, want %v", tt.method, tt.params, probe.name, hit, want)
			}
		}
	}
	c.Invalidate("tools/list")
	if _, hit := c.Get("tools/list", nil, ""); hit {
		t.Error("Invalidate(tools/list) kept it")
	}
	if _, hit := c.Get("prompts/list", nil, ""); !hit {
		t.Error("Invalidate(tools/list) dropped prompts/list")
	}
}

// Memory is bounded: expired entries go first, then the soonest to expire.
func TestBounded(t *testing.T) {
	c, clk := newCache(3)
	put := func(uri string, ttl int) {
		c.Put("resources/read", raw(`{"uri":"`+uri+`"}`), "", raw(fmt.Sprintf(`{"ttlMs":%d,"cacheScope":"public"}`, ttl)))
	}
	has := func(uri string) bool {
		_, hit := c.Get("resources/read", raw(`{"uri":"`+uri+`"}`), "")
		return hit
	}
	put("a", 5000)
	put("b", 1000)
	put("c", 9000)
	put("d", 7000) // full: b expires soonest and goes
	if !has("a") || has("b") || !has("c") || !has("d") {
		t.Errorf("after d: a %v b %v c %v d %v", has("a"), has("b"), has("c"), has("d"))
	}
	clk.advance(6 * time.Second) // a is stale
	put("e", 100)
	if has("a") || !has("c") || !has("d") || !has("e") {
		t.Errorf("after e: a %v c %v d %v e %v", has("a"), has("c"), has("d"), has("e"))
	}
	for i := range 100 {
		put(fmt.Sprint("x", i), 1000+i)
	}
	if n := len(c.entries); n > 3 {
		t.Errorf("%d entries kept, max 3", n)
	}
}

// Concurrent use is safe (run with -race).
func TestConcurrent(t *testing.T) {
	c := &Cache{Max: 16}
	done := make(chan struct{})
	for g := range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range 500 {
				p := raw(fmt.Sprintf(`{"uri":"u%d"}`, (g*500+i)%40))
				c.Put("resources/read", p, "", raw(listResult))
				c.Get("resources/read", p, "")
				if i%50 == 0 {
					c.Notify("notifications/resources/updated", p)
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
}

// Whatever a server answers and whatever params were sent, the cache
// neither panics nor serves a result it did not keep.
func FuzzPutGet(f *testing.F) {
	f.Add(`{"uri":"a://1"}`, `{"ttlMs":1000,"cacheScope":"private"}`)
	f.Add(`{"cursor":""}`, listResult)
	f.Add(`null`, `{"ttlMs":1e3,"cacheScope":"public"}`)
	f.Add(`{"uri":1,"_meta":null}`, `{"resultType":"complete","ttlMs":1,"cacheScope":"public"}`)
	f.Fuzz(func(t *testing.T, params, result string) {
		c, _ := newCache(2)
		kept := c.Put("resources/read", raw(params), "p", raw(result))
		got, hit := c.Get("resources/read", raw(params), "p")
		if hit != kept || (hit && string(got) != result) {
			t.Errorf("Put = %v, Get = %s, %v", kept, got, hit)
		}
		c.Notify("notifications/resources/updated", raw(params))
	})
}

// An answer to a request sent before a list change was told of is not
// kept: it may predate the change.
func TestPutSinceDropsAnswersOlderThanANotification(t *testing.T) {
	c := &Cache{}
	result := json.RawMessage(`{"resultType":"complete","ttlMs":60000,"cacheScope":"private","tools":[]}`)
	gen := c.Generation()
	c.Notify("notifications/tools/list_changed", nil)
	if c.PutSince(gen, "tools/list", nil, "", result) {
		t.Fatal("an answer older than the notification was kept")
	}
	if !c.PutSince(c.Generation(), "tools/list", nil, "", result) {
		t.Fatal("a fresh answer was not kept")
	}
	if _, ok := c.Get("tools/list", nil, ""); !ok {
		t.Fatal("the fresh answer is not served")
	}
}
