package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/apps"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/protocol"
)

// browserDir holds the browser driver (interop/browser: playwright-core
// and drive.mjs) and, after a run, the screenshot.
var browserDir = filepath.Join("..", "..", "interop", "browser")

// TestAppInBrowser runs the calculator of -apps in headless Chromium: a
// test host (testHost: apps.Bridge behind a page that embeds the view
// through a sandbox proxy on an origin of its own) shows the result of a
// calculator call to cmd/everything -http, and interop/browser/drive.mjs
// fills the form, clicks Add and reads the sum calculator_add returned
// through the host. The view then fetches a loopback URL its policy does
// not allow: the fetch must be blocked, with a CSP violation, and never
// reach the URL's server; with the policy header left out it does reach
// it, so the block is the policy's doing. The screenshot is kept in
// interop/browser/artefacts.
//
// It needs Chromium and the driver's npm install; without them it is
// skipped, unless MCPWIRE_REQUIRE_BROWSER is set (as .ci/run sets it,
// having installed both).
func TestAppInBrowser(t *testing.T) {
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	node, err := exec.LookPath("node")
	for _, missing := range []bool{err != nil, !exists(chromium), !exists(filepath.Join(browserDir, "node_modules", "playwright-core"))} {
		if missing {
			if os.Getenv("MCPWIRE_REQUIRE_BROWSER") != "" {
				t.Fatalf("node, %s or interop/browser's npm install is missing, and MCPWIRE_REQUIRE_BROWSER is set", chromium)
			}
			t.Skip("needs node, Chromium (CHROMIUM, default /usr/bin/chromium) and npm ci in interop/browser")
		}
	}
	_, endpoint := startHTTP(t, "-apps")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	c, err := client.Connect(ctx, client.HTTP{URL: endpoint}, &client.Options{Extensions: []client.Extension{apps.Declare}, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	var probed atomic.Int64
	probe := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { probed.Add(1) }))
	defer probe.Close()
	artefacts := filepath.Join(browserDir, "artefacts")
	if err := os.MkdirAll(artefacts, 0o755); err != nil {
		t.Fatal(err)
	}

	for _, withPolicy := range []bool{true, false} {
		h := newTestHost(t, c, withPolicy)
		shot := filepath.Join(artefacts, "calculator.png")
		if !withPolicy {
			shot = filepath.Join(artefacts, "calculator-no-policy.png")
		}
		before := probed.Load()
		cmd := exec.CommandContext(ctx, node, filepath.Join("..", "drive.mjs"), h.url, probe.URL+"/probe", filepath.Base(shot))
		cmd.Dir, cmd.Env = artefacts, append(os.Environ(), "CHROMIUM="+chromium)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.Output()
		if err != nil {
			t.Fatalf("drive.mjs: %v\n%s", err, stderr.String())
		}
		var got struct {
			First, Status, Sum, Network, Violation, Error string
			Console                                       []string
		}
		if err := json.Unmarshal(stdout, &got); err != nil {
			t.Fatalf("drive.mjs printed %q: %v", stdout, err)
		}
		t.Logf("policy %v: %+v (screenshot %s)", withPolicy, got, shot)
		if got.Error != "" {
			t.Fatalf("drive.mjs: %s\nconsole: %q\nbridge: %q", got.Error, got.Console, h.log())
		}
		if got.First != "5" || got.Status != "added" || got.Sum != "12" {
			t.Fatalf("the view showed first %q, then %q with sum %q; want 5, then added with 12 (bridge: %q)", got.First, got.Status, got.Sum, h.log())
		}
		if !strings.Contains(strings.Join(h.log(), " "), "tools/call calculator_add") {
			t.Fatalf("calculator_add never went through the bridge: %q", h.log())
		}
		reached := probed.Load() - before
		if withPolicy && (reached != 0 || !strings.HasPrefix(got.Network, "failed") || got.Violation != "blocked by connect-src") {
			t.Fatalf("with the policy: the fetch reached the probe %d times, the view says %q, %q; want it blocked by connect-src", reached, got.Network, got.Violation)
		}
		if !withPolicy && (reached != 1 || got.Network != "reached") {
			t.Fatalf("without the policy: the fetch reached the probe %d times, the view says %q; want it reached once", reached, got.Network)
		}
	}
}

// testHost is a web host for one tool call of cmd/everything's calculator:
// its page's origin serves the page, /launch and /rpc (an apps.Bridge per
// launch); a second origin serves the sandbox proxy with the view's
// policy as its Content-Security-Policy header (left out when policy is
// false, for the test's control run).
type testHost struct {
	url string

	c      *client.Client
	policy bool

	mu       sync.Mutex
	sessions map[string]*hostSession
	heard    []string
}

type hostSession struct {
	bridge *apps.Bridge
	view   *apps.View
}

func newTestHost(t *testing.T, c *client.Client, policy bool) *testHost {
	t.Helper()
	h := &testHost{c: c, policy: policy, sessions: map[string]*hostSession{}}
	page, err := os.ReadFile(filepath.Join("testdata", "apphost", "host.html"))
	if err != nil {
		t.Fatal(err)
	}
	proxy, err := os.ReadFile(filepath.Join("testdata", "apphost", "sandbox.html"))
	if err != nil {
		t.Fatal(err)
	}
	// Both listeners exist before either serves, so each handler reads the
	// other's origin as a constant.
	mux := http.NewServeMux()
	srv := httptest.NewUnstartedServer(mux)
	hostOrigin := "http://" + srv.Listener.Addr().String()
	sandbox := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := h.session(r.URL.Query().Get("session"))
		if r.URL.Path != "/sandbox.html" || s == nil {
			http.NotFound(w, r)
			return
		}
		if h.policy {
			policy, err := s.view.Meta.CSP.Policy()
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			w.Header().Set("Content-Security-Policy", policy)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		origin, _ := json.Marshal(hostOrigin)
		w.Write([]byte(strings.Replace(string(proxy), "HOST_ORIGIN", string(origin), 1)))
	}))
	sandboxURL := "http://" + sandbox.Listener.Addr().String()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("POST /launch", func(w http.ResponseWriter, r *http.Request) {
		id, s, err := h.launch(r.Context())
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{
			"session": id, "tool": "calculator", "html": s.view.HTML, "permissions": s.view.Meta.Permissions,
			"sandbox": sandboxURL + "/sandbox.html?session=" + id,
		})
	})
	mux.HandleFunc("POST /rpc", func(w http.ResponseWriter, r *http.Request) {
		s := h.session(r.URL.Query().Get("session"))
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, apps.MaxViewMessageBytes))
		if s == nil || err != nil {
			http.Error(w, "no such session", http.StatusNotFound)
			return
		}
		h.hear(body)
		out := s.bridge.Receive(r.Context(), body)
		if out == nil {
			out = []json.RawMessage{}
		}
		json.NewEncoder(w).Encode(out)
	})
	h.url = hostOrigin + "/"
	sandbox.Start()
	srv.Start()
	t.Cleanup(sandbox.Close)
	t.Cleanup(srv.Close)
	return h
}

// launch does what an agent's host does when its model calls the
// calculator: calls it, loads its view, and makes the view's bridge.
func (h *testHost) launch(ctx context.Context) (string, *hostSession, error) {
	var desc *protocol.Tool
	for t, err := range h.c.Tools(ctx) {
		if err != nil {
			return "", nil, err
		}
		if t.Name == "calculator" {
			desc = t
		}
	}
	meta, err := apps.ToolMetaOf(desc)
	if err != nil {
		return "", nil, err
	}
	args := json.RawMessage(`{"a":2,"b":3}`)
	result, err := h.c.CallTool(ctx, "calculator", args)
	if err != nil {
		return "", nil, err
	}
	view, err := apps.Load(ctx, h.c, meta.ResourceURI)
	if err != nil {
		return "", nil, err
	}
	s := &hostSession{view: view, bridge: apps.NewBridge(apps.BridgeOptions{
		Client: h.c, Tool: desc, Arguments: args, Result: result,
		HostInfo: protocol.Implementation{Name: "mcpwire-test-host", Version: "1"},
	})}
	b := make([]byte, 16)
	rand.Read(b)
	id := hex.EncodeToString(b)
	h.mu.Lock()
	h.sessions[id] = s
	h.mu.Unlock()
	return id, s, nil
}

func (h *testHost) session(id string) *hostSession {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sessions[id]
}

// hear notes the method (and a tools/call's tool) of a message from the
// view.
func (h *testHost) hear(body []byte) {
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	json.Unmarshal(body, &m)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.heard = append(h.heard, strings.TrimSpace(m.Method+" "+m.Params.Name))
}

func (h *testHost) log() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.heard...)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
