//go:build deploy

package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Sizes of the run: DEPLOY_CALLS overrides the number of modern calls.
const (
	defaultCalls   = 50000
	workers        = 32
	legacySessions = 100
)

// deployment is what TestDeployment started.
type deployment struct {
	// top is TestDeployment's own T: the processes live as long as it,
	// whichever subtest (re)started them.
	top       *testing.T
	bin       string
	redisBin  string
	env       []string
	redisPort int
	redis     *proc
	instances []*instance
	nginxURL  string
}

// TestDeployment runs three instances behind nginx with Redis fan-out and
// checks, with the load driver below, what a team deploying them relies
// on; see the package doc and README's deployment section.
func TestDeployment(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o755) // nginx's workers read and write under it
	d := &deployment{top: t, bin: buildEverything(t, dir)}
	ports := freePorts(t, 5)
	d.redisPort = ports[0]
	d.redisBin = need(t, "redis-server")
	need(t, "nginx")
	var err error
	if d.redis, err = redis(t, d.redisBin, d.redisPort); err != nil {
		t.Fatal(err)
	}
	d.env = []string{
		"MCPWIRE_STATE_KEY=deployment-test-shared-secret-0123456789",
		"MCPWIRE_TRUSTED_PROXIES=127.0.0.1", // nginx, which forwards the client's address
		fmt.Sprintf("MCPWIRE_REDIS=127.0.0.1:%d", d.redisPort),
	}
	for i := range 3 {
		in := &instance{Name: fmt.Sprintf("i%d", i+1), Addr: fmt.Sprintf("127.0.0.1:%d", ports[2+i])}
		if err := in.launch(t, d.bin, d.env); err != nil {
			t.Fatal(err)
		}
		d.instances = append(d.instances, in)
	}
	listen := fmt.Sprintf("127.0.0.1:%d", ports[1])
	nginx(t, dir, listen, d.instances)
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		logs, _ := os.ReadFile(filepath.Join(dir, "error.log"))
		t.Logf("nginx error.log (last 3000 bytes):\n%s", tail(string(logs), 3000))
		for _, in := range d.instances {
			t.Logf("%s output (last 3000 bytes):\n%s", in.Name, tail(in.proc.out.String(), 3000))
		}
		t.Logf("redis output (last 1000 bytes):\n%s", tail(d.redis.out.String(), 1000))
	})
	d.nginxURL = "http://" + listen + "/mcp"
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	if err := ready(ctx, d.nginxURL); err != nil {
		t.Fatal(err)
	}

	t.Run("cursors", func(t *testing.T) { cursorsAcross(t, ctx, d) })
	t.Run("input_required", func(t *testing.T) { inputAcross(t, ctx, d) })
	tasks := &taskReport{}
	t.Run("tasks", func(t *testing.T) { tasksAcross(t, ctx, d, tasks) })
	t.Run("tasks_input", func(t *testing.T) { taskInputAcross(t, ctx, d, tasks) })
	t.Run("fanout", func(t *testing.T) { fanOut(t, ctx, d, "before the load") })
	var rep *loadReport
	t.Run("load", func(t *testing.T) {
		rep = load(t, ctx, d)
		countedByInstances(t, ctx, d, rep)
	})
	t.Run("fanout-after-redis-restart", func(t *testing.T) { fanOut(t, ctx, d, "after Redis restarted") })
	var leg *legacyReport
	t.Run("legacy", func(t *testing.T) { leg = legacy(t, ctx, d) })
	t.Run("hostile", func(t *testing.T) { hostile(t, ctx, d) })
	if rep != nil {
		rep.print(t, leg, tasks)
	}
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// cursorsAcross: a cursor one instance sealed pages on at another.
func cursorsAcross(t *testing.T, ctx context.Context, d *deployment) {
	var page struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
		NextCursor *string `json:"nextCursor"`
	}
	first := newClient(d.instances[0].URL(), 1)
	a, err := first.call(ctx, 1, "tools/list", "", nil)
	if err != nil || a.result(&page) != nil || page.NextCursor == nil {
		t.Fatalf("tools/list at %s: %v %+v", d.instances[0].Name, err, a)
	}
	seen := map[string]bool{}
	for _, tool := range page.Tools {
		seen[tool.Name] = true
	}
	pages := 1
	for i := 0; page.NextCursor != nil; i++ {
		in := d.instances[(i+1)%len(d.instances)]
		cursor := *page.NextCursor
		page.NextCursor, page.Tools = nil, nil
		a, err := newClient(in.URL(), 1).call(ctx, 2, "tools/list", "", map[string]any{"cursor": cursor})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.result(&page); err != nil {
			t.Fatalf("page %d at %s with a cursor from another instance: %v", pages+1, in.Name, err)
		}
		for _, tool := range page.Tools {
			if seen[tool.Name] {
				t.Errorf("page %d at %s repeats %s", pages+1, in.Name, tool.Name)
			}
			seen[tool.Name] = true
		}
		pages++
	}
	if pages < 3 || !seen["echo"] {
		t.Errorf("%d pages, %d tools (echo among them: %v)", pages, len(seen), seen["echo"])
	}
	t.Logf("tools/list: %d pages across the three instances, %d tools", pages, len(seen))
}

// inputAcross: an input_required round started at one instance is
// finished at another.
func inputAcross(t *testing.T, ctx context.Context, d *deployment) {
	const name = "test_input_required_result_elicitation"
	var first struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  string                     `json:"requestState"`
	}
	a, err := newClient(d.instances[0].URL(), 1).call(ctx, 1, "tools/call", name, map[string]any{"name": name, "arguments": map[string]any{}})
	if err != nil || a.result(&first) != nil || first.ResultType != "input_required" || first.InputRequests["user_name"] == nil {
		t.Fatalf("first round at %s: %v %+v", d.instances[0].Name, err, first)
	}
	params := map[string]any{"name": name, "arguments": map[string]any{}, "requestState": first.RequestState,
		"inputResponses": map[string]any{"user_name": map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}}}}
	var done struct {
		ResultType string `json:"resultType"`
		Content    []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	a, err = newClient(d.instances[1].URL(), 1).call(ctx, 2, "tools/call", name, params)
	if err != nil || a.result(&done) != nil || done.ResultType != "complete" || len(done.Content) == 0 || !strings.Contains(done.Content[0].Text, "Ada") {
		t.Fatalf("retry at %s: %v %+v %+v", d.instances[1].Name, err, done, a)
	}
	t.Logf("input_required: started at %s, finished at %s: %q", d.instances[0].Name, d.instances[1].Name, done.Content[0].Text)
}

// fanOut: a resources/updated raised at one instance reaches a listen
// stream held at another, through Redis.
func fanOut(t *testing.T, ctx context.Context, d *deployment, when string) {
	const uri = "test://watched-resource"
	lctx, stop := context.WithTimeout(ctx, 20*time.Second)
	defer stop()
	acked := make(chan struct{})
	got := make(chan string, 8)
	go func() {
		holder := newClient(d.instances[2].URL(), 1)
		body := request("listen-1", "subscriptions/listen", map[string]any{"_meta": modernMeta(),
			"notifications": map[string]any{"resourceSubscriptions": []string{uri}}})
		holder.post(lctx, modernVersion, "", "subscriptions/listen", "", body, func(m message) {
			switch m.Method {
			case "notifications/subscriptions/acknowledged":
				close(acked)
			case "notifications/resources/updated":
				var p struct {
					URI string `json:"uri"`
				}
				json.Unmarshal(m.Params, &p)
				got <- p.URI
			}
		})
	}()
	select {
	case <-acked:
	case <-lctx.Done():
		t.Fatalf("the listen stream at %s was not acknowledged", d.instances[2].Name)
	}
	// Redis may be reconnecting: touch until the update arrives.
	raiser := newClient(d.instances[0].URL(), 1)
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for i := 1; ; i++ {
		a, err := raiser.call(lctx, i, "tools/call", "touch_resource", map[string]any{"name": "touch_resource", "arguments": map[string]any{"uri": uri}})
		if err == nil && a.response() != nil && a.response().Error != nil {
			t.Fatalf("touch_resource: %+v", a.response().Error)
		}
		select {
		case u := <-got:
			if u != uri {
				t.Fatalf("updated %q, want %q", u, uri)
			}
			t.Logf("fan-out %s: raised at %s, heard at %s after %d touch(es)", when, d.instances[0].Name, d.instances[2].Name, i)
			return
		case <-tick.C:
		case <-lctx.Done():
			t.Fatalf("fan-out %s: no notifications/resources/updated at %s within 20s", when, d.instances[2].Name)
		}
	}
}

// loadReport is what the modern load saw.
type loadReport struct {
	calls       int
	ok          int
	errs        map[string]int // by kind
	byUpstream  map[string]int
	latencies   []time.Duration
	elapsed     time.Duration
	duplicates  int
	events      []string
	afterRejoin map[string]int   // answers per upstream after the killed instance rejoined
	counted     map[string]int64 // tool calls each instance says it served (since it last started)
}

// countedByInstances asks each instance (directly) how many tool calls it
// served: at least what the driver saw it answer through nginx (since its
// last start, for the one that was killed).
func countedByInstances(t *testing.T, ctx context.Context, d *deployment, rep *loadReport) {
	rep.counted = map[string]int64{}
	for i, in := range d.instances {
		var info struct {
			StructuredContent struct {
				Instance string `json:"instance"`
				Calls    int64  `json:"calls"`
			} `json:"structuredContent"`
		}
		a, err := newClient(in.URL(), 1).call(ctx, 1, "tools/call", "instance", map[string]any{"name": "instance", "arguments": map[string]any{}})
		if err != nil || a.result(&info) != nil || info.StructuredContent.Instance != in.Name {
			t.Errorf("instance tool at %s: %v %+v", in.Name, err, info)
			continue
		}
		rep.counted[in.Addr] = info.StructuredContent.Calls
		want := rep.byUpstream[in.Addr]
		if i == 1 {
			want = rep.afterRejoin[in.Addr]
		}
		if int(info.StructuredContent.Calls) < want {
			t.Errorf("%s counted %d tool calls, fewer than the %d the driver saw it answer", in.Name, info.StructuredContent.Calls, want)
		}
	}
}

// load drives the modern calls through nginx, killing an instance and
// restarting Redis part way through.
func load(t *testing.T, ctx context.Context, d *deployment) *loadReport {
	n := defaultCalls
	if v := os.Getenv("DEPLOY_CALLS"); v != "" {
		fmt.Sscan(v, &n)
	}
	c := newClient(d.nginxURL, workers)
	rep := &loadReport{calls: n, errs: map[string]int{}, byUpstream: map[string]int{}, afterRejoin: map[string]int{}}
	var (
		next     atomic.Int64
		answered = make([]atomic.Int32, n)
		mu       sync.Mutex
		rejoined atomic.Bool
	)
	victim := d.instances[1]
	var chaos sync.WaitGroup
	chaos.Add(1)
	go func() { // the incidents, at fixed points of the run
		defer chaos.Done()
		wait := func(frac float64) {
			for next.Load() < int64(float64(n)*frac) && ctx.Err() == nil {
				time.Sleep(5 * time.Millisecond)
			}
		}
		wait(0.3)
		victim.proc.kill()
		mu.Lock()
		rep.events = append(rep.events, fmt.Sprintf("call %d: %s killed (SIGKILL)", next.Load(), victim.Name))
		mu.Unlock()
		wait(0.45)
		if err := victim.launch(d.top, d.bin, d.env); err != nil {
			t.Error(err)
			return
		}
		rejoined.Store(true)
		mu.Lock()
		rep.events = append(rep.events, fmt.Sprintf("call %d: %s restarted", next.Load(), victim.Name))
		mu.Unlock()
		wait(0.6)
		d.redis.kill()
		mu.Lock()
		rep.events = append(rep.events, fmt.Sprintf("call %d: Redis stopped", next.Load()))
		mu.Unlock()
		wait(0.7)
		var err error
		if d.redis, err = redis(d.top, d.redisBin, d.redisPort); err != nil {
			t.Error(err)
			return
		}
		mu.Lock()
		rep.events = append(rep.events, fmt.Sprintf("call %d: Redis started again", next.Load()))
		mu.Unlock()
	}()
	startAt := time.Now()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lat []time.Duration
			for {
				i := int(next.Add(1)) - 1
				if i >= n || ctx.Err() != nil {
					break
				}
				t0 := time.Now()
				a, err := c.call(ctx, i, "tools/call", "echo", map[string]any{"name": "echo", "arguments": map[string]any{"text": fmt.Sprint("call ", i)}})
				el := time.Since(t0)
				kind := ""
				switch {
				case err != nil:
					kind = "transport"
				case a.status != http.StatusOK:
					kind = fmt.Sprintf("HTTP %d", a.status)
				case a.response() == nil:
					kind = "no response"
				case a.response().Error != nil:
					kind = fmt.Sprintf("JSON-RPC %d", a.response().Error.Code)
				case string(a.response().ID) != fmt.Sprint(i) || !strings.Contains(string(a.response().Result), fmt.Sprintf(`"call %d"`, i)):
					kind = "wrong answer"
				}
				if kind == "" {
					answered[i].Add(1)
				}
				mu.Lock()
				if kind == "" {
					rep.ok++
					rep.byUpstream[a.upstream]++
					if rejoined.Load() {
						rep.afterRejoin[a.upstream]++
					}
				} else {
					rep.errs[kind]++
				}
				mu.Unlock()
				lat = append(lat, el)
			}
			mu.Lock()
			rep.latencies = append(rep.latencies, lat...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	rep.elapsed = time.Since(startAt)
	chaos.Wait()
	for i := range answered {
		if answered[i].Load() > 1 {
			rep.duplicates++
		}
	}
	failed := 0
	for _, v := range rep.errs {
		failed += v
	}
	if rep.ok+failed != n || rep.duplicates != 0 {
		t.Errorf("%d answered + %d failed of %d calls, %d answered twice", rep.ok, failed, n, rep.duplicates)
	}
	for kind := range rep.errs {
		if kind != "transport" && kind != "HTTP 502" {
			t.Errorf("%d calls failed as %s: only the killed instance's calls in flight may fail, as transport errors", rep.errs[kind], kind)
		}
	}
	if failed > workers*2 {
		t.Errorf("%d calls failed: more than the killed instance can have had in flight", failed)
	}
	for _, in := range d.instances {
		share := rep.byUpstream[in.Addr]
		if share < n/10 {
			t.Errorf("%s answered %d of %d calls", in.Name, share, n)
		}
		if rep.afterRejoin[in.Addr] == 0 {
			t.Errorf("%s answered nothing after %s rejoined", in.Name, victim.Name)
		}
	}
	return rep
}

// print writes the summary table.
func (r *loadReport) print(t *testing.T, leg *legacyReport, tasks *taskReport) {
	sort.Slice(r.latencies, func(i, j int) bool { return r.latencies[i] < r.latencies[j] })
	q := func(p float64) time.Duration {
		if len(r.latencies) == 0 {
			return 0
		}
		return r.latencies[min(len(r.latencies)-1, int(p*float64(len(r.latencies))))]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\ndeployment: 3 instances behind nginx, Redis fan-out and task store\n")
	fmt.Fprintf(&b, "  modern calls  %d in %v (%.0f calls/s), %d answered, %d answered twice\n",
		r.calls, r.elapsed.Round(time.Millisecond), float64(r.calls)/r.elapsed.Seconds(), r.ok, r.duplicates)
	fmt.Fprintf(&b, "  latency       p50 %v, p99 %v\n", q(0.5).Round(time.Microsecond), q(0.99).Round(time.Microsecond))
	var ups []string
	for u := range r.byUpstream {
		ups = append(ups, u)
	}
	slices.Sort(ups)
	for _, u := range ups {
		fmt.Fprintf(&b, "  %-21s %6d calls (%4.1f%%), %d after the restart; it counted %d\n", u, r.byUpstream[u], 100*float64(r.byUpstream[u])/float64(r.calls), r.afterRejoin[u], r.counted[u])
	}
	if len(r.errs) == 0 {
		fmt.Fprintf(&b, "  errors        none\n")
	}
	for k, v := range r.errs {
		fmt.Fprintf(&b, "  errors        %d %s\n", v, k)
	}
	for _, e := range r.events {
		fmt.Fprintf(&b, "  event         %s\n", e)
	}
	if leg != nil {
		fmt.Fprintf(&b, "  legacy        %d sessions, %d requests, each session on one instance: %v; elicitation round trips %d\n",
			leg.sessions, leg.requests, leg.sticky, leg.elicited)
	}
	if tasks.polled != "" {
		fmt.Fprintf(&b, "  tasks         %s\n", tasks.polled)
	}
	if tasks.answered != "" {
		fmt.Fprintf(&b, "  task input    %s\n", tasks.answered)
	}
	t.Log(b.String())
}
