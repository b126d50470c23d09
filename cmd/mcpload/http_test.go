package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/tool"
)

// modeHTTP makes the re-executed test binary an mcphttp server that prints
// its URL on stderr and stops on SIGTERM.
const modeHTTP = "http"

// newEchoHandler returns an mcphttp handler serving one echo tool.
func newEchoHandler(t testing.TB) *mcphttp.Handler {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := mcp.NewServer(mcp.Implementation{Name: "test-echo", Version: "1"}, &mcp.Options{Logger: quiet})
	srv.MustAddTool(tool.New("echo", "Echoes its text.", func(_ context.Context, in struct {
		Text string `json:"text"`
	}) (*tool.Result, error) {
		return tool.TextResult(in.Text), nil
	}))
	h := mcphttp.NewHandler(srv, &mcphttp.Options{Logger: quiet})
	if t != nil {
		t.Cleanup(h.Close)
	}
	return h
}

// runFakeHTTPServer is the body of the modeHTTP child process.
func runFakeHTTPServer() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	h := newEchoHandler(nil)
	hs := &http.Server{Handler: h}
	fmt.Fprintf(os.Stderr, "fake: listening on http://%s/mcp\n", ln.Addr())
	go hs.Serve(ln)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	<-sig
	h.Close()
	_ = hs.Shutdown(context.Background())
	return 0
}

// httpConfig is a small HTTP run of the given era against url.
func httpConfig(url, era string) config {
	return config{
		name:     "http-" + era,
		url:      url,
		era:      era,
		calls:    300,
		depth:    8,
		warmup:   10,
		phases:   map[string]bool{"seq": true, "conc": true, "big": true},
		bigSizes: []int{256 << 10},
		timeout:  10 * time.Second,
		exitWait: 5 * time.Second,
		stderr:   io.Discard,
	}
}

// checkHTTPRun checks a clean run of httpConfig.
func checkHTTPRun(t *testing.T, rep *Report, wantVersion string) {
	t.Helper()
	if rep.Failures != 0 || len(rep.Problems) != 0 {
		t.Fatalf("failures %d, problems %q", rep.Failures, rep.Problems)
	}
	if rep.Server.ProtocolVersion != wantVersion {
		t.Errorf("protocol version %q, want %q", rep.Server.ProtocolVersion, wantVersion)
	}
	for _, x := range []*RateResult{rep.Sequential, rep.Concurrent} {
		if x == nil || x.OK != 300 || x.CallsPerSec <= 0 || x.P50US <= 0 || x.P99US < x.P50US {
			t.Errorf("rate result %+v", x)
		}
	}
	if rep.Concurrent != nil && rep.Concurrent.Depth != 8 {
		t.Errorf("concurrent depth %d, want 8", rep.Concurrent.Depth)
	}
	if len(rep.Big) != 1 || !rep.Big[0].OK {
		t.Errorf("big = %+v", rep.Big)
	}
}

// TestHTTPAgainstMcphttp measures an in-process mcphttp handler in both
// eras; the test process is the server, so its pid gives the CPU and
// memory figures.
func TestHTTPAgainstMcphttp(t *testing.T) {
	ts := httptest.NewServer(newEchoHandler(t))
	defer ts.Close()
	for _, tc := range []struct {
		era, version string
		session      bool
	}{{eraModern, modernVersion, false}, {eraLegacy, legacyHTTPVersion, true}} {
		t.Run(tc.era, func(t *testing.T) {
			cfg := httpConfig(ts.URL, tc.era)
			cfg.pid = os.Getpid()
			rep, err := runHTTP(cfg)
			if err != nil {
				t.Fatal(err)
			}
			checkHTTPRun(t, rep, tc.version)
			if rep.Server.Name != "test-echo" || rep.Server.Session != tc.session {
				t.Errorf("server %+v, want test-echo, session %v", rep.Server, tc.session)
			}
			if rep.Sequential.CPUUSPerCall < 0 || rep.PeakRSSBytes <= 0 {
				t.Errorf("cpu %v µs/call, peak RSS %d: want both read", rep.Sequential.CPUUSPerCall, rep.PeakRSSBytes)
			}
		})
	}
}

// TestHTTPStartedServer lets mcpload start the server, read its URL from
// stderr and stop it with SIGTERM.
func TestHTTPStartedServer(t *testing.T) {
	t.Setenv(fakeEnv, modeHTTP)
	var out, errOut bytes.Buffer
	args := []string{"-http", "-json", "-n", "200", "-depth", "4", "-warmup", "5", "-name", "started", "--", os.Args[0]}
	if code := mainErr(args, &out, &errOut); code != 0 {
		t.Fatalf("mainErr = %d, stderr %s", code, errOut.String())
	}
	var rep Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("-json output: %v\n%s", err, out.String())
	}
	if !strings.Contains(errOut.String(), "fake: listening on http://127.0.0.1:") {
		t.Errorf("the server's stderr was not passed on: %q", errOut.String())
	}
	if rep.Transport != "http" || rep.Era != eraModern || !strings.HasPrefix(rep.URL, "http://127.0.0.1:") {
		t.Errorf("report %+v", rep)
	}
	if rep.Sequential.OK != 200 || rep.Concurrent.OK != 200 || rep.Pipelined != nil || rep.Big != nil {
		t.Errorf("phases: seq %+v conc %+v pipe %+v big %+v", rep.Sequential, rep.Concurrent, rep.Pipelined, rep.Big)
	}
	if rep.Concurrent.CPUUSPerCall < 0 || rep.PeakRSSBytes <= 0 {
		t.Errorf("cpu %v µs/call, peak RSS %d: want both read", rep.Concurrent.CPUUSPerCall, rep.PeakRSSBytes)
	}
	if rep.Exit.Killed || rep.Exit.Error != "" {
		t.Errorf("exit %+v, want a clean exit after SIGTERM", rep.Exit)
	}
}

// fakeHTTP is a hand-written Streamable HTTP endpoint: it checks the
// headers of every request, answers calls on an event stream after one
// notification, and fails every failEvery-th call with -32020.
type fakeHTTP struct {
	t         *testing.T
	legacy    bool
	failEvery int64
	mu        sync.Mutex
	calls     int64
	deleted   bool
}

const fakeSession = "s-123"

func (f *fakeHTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodDelete {
		f.mu.Lock()
		f.deleted = r.Header.Get("Mcp-Session-Id") == fakeSession
		f.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name      string `json:"name"`
			Arguments struct {
				Text string `json:"text"`
			} `json:"arguments"`
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	if err := json.Unmarshal(body, &msg); err != nil {
		f.t.Errorf("body %q: %v", body, err)
	}
	bad := func(format string, args ...any) {
		f.t.Errorf(format, args...)
		w.WriteHeader(http.StatusBadRequest)
	}
	if got := r.Header.Get("Content-Type"); got != "application/json" {
		bad("Content-Type %q", got)
		return
	}
	if got := r.Header.Get("Accept"); !strings.Contains(got, "text/event-stream") || !strings.Contains(got, "application/json") {
		bad("Accept %q", got)
		return
	}
	switch {
	case !f.legacy:
		if r.Header.Get("MCP-Protocol-Version") != modernVersion || r.Header.Get("Mcp-Method") != msg.Method ||
			r.Header.Get("Mcp-Name") != msg.Params.Name || r.Header.Get("Mcp-Session-Id") != "" {
			bad("modern headers %v for %s", r.Header, body)
			return
		}
		if string(msg.Params.Meta["io.modelcontextprotocol/protocolVersion"]) != `"`+modernVersion+`"` ||
			string(msg.Params.Meta["io.modelcontextprotocol/clientCapabilities"]) != `{}` {
			bad("modern _meta %s", body)
			return
		}
	case msg.Method == "initialize":
		w.Header().Set("Mcp-Session-Id", fakeSession)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"fake-http","version":"2"}}}`, msg.ID)
		return
	case r.Header.Get("Mcp-Session-Id") != fakeSession || r.Header.Get("MCP-Protocol-Version") != "2025-06-18" || msg.Params.Meta != nil:
		bad("legacy headers %v for %s", r.Header, body)
		return
	case msg.Method == "notifications/initialized":
		w.WriteHeader(http.StatusAccepted)
		return
	}
	f.mu.Lock()
	f.calls++
	n := f.calls
	f.mu.Unlock()
	if f.failEvery > 0 && n%f.failEvery == 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32020,"message":"header mismatch"}}`, msg.ID)
		return
	}
	text, _ := json.Marshal(msg.Params.Arguments.Text)
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprintf(w, "event: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"x\"}}\n\n")
	fmt.Fprintf(w, ": keep-alive\n\nid: 2\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\r\ndata: \"result\":{\"content\":[{\"type\":\"text\",\"text\":%s}]}}\r\n\r\n", msg.ID, text)
}

// TestHTTPEventStreamsAndErrors runs against fakeHTTP: event-stream
// responses with a notification first, data split over lines, HTTP 400
// with a JSON-RPC error counted as a failed call, the legacy session's
// headers and its DELETE.
func TestHTTPEventStreamsAndErrors(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		era := eraModern
		if legacy {
			era = eraLegacy
		}
		t.Run(era, func(t *testing.T) {
			f := &fakeHTTP{t: t, legacy: legacy, failEvery: 50}
			ts := httptest.NewServer(f)
			defer ts.Close()
			cfg := httpConfig(ts.URL, era)
			cfg.warmup = 0 // no warm-up: every call is counted
			rep, err := runHTTP(cfg)
			if err != nil {
				t.Fatal(err)
			}
			// Calls: the modern first call, 300 seq, 300 conc, 1 big.
			calls := 601
			if !legacy {
				calls++
			}
			if f.calls != int64(calls) {
				t.Errorf("server saw %d calls, want %d", f.calls, calls)
			}
			if rep.Failures != calls/50 {
				t.Errorf("failures %d, want %d; problems %q", rep.Failures, calls/50, rep.Problems)
			}
			if !strings.Contains(rep.Sequential.FirstError, "json-rpc error -32020") {
				t.Errorf("first error %q", rep.Sequential.FirstError)
			}
			if want := int64(calls - calls/50); rep.Anomalies.Notifications != want || rep.Anomalies.Unmatched != 0 {
				t.Errorf("anomalies %+v, want %d notifications", rep.Anomalies, want)
			}
			if len(rep.Big) != 1 || !rep.Big[0].OK {
				t.Errorf("big %+v", rep.Big)
			}
			if legacy && (!f.deleted || rep.Server.Name != "fake-http" || !rep.Server.Session) {
				t.Errorf("legacy: deleted %v, server %+v", f.deleted, rep.Server)
			}
		})
	}
}

// TestHTTPServerGone: a server that is not there fails the run at once.
func TestHTTPServerGone(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	url := ts.URL
	ts.Close()
	if _, err := runHTTP(httpConfig(url, eraModern)); err == nil || !strings.Contains(err.Error(), errServerGone.Error()) {
		t.Fatalf("run against a closed port: %v, want %v", err, errServerGone)
	}
}

func TestMainErrHTTPUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-http", "-url", "http://127.0.0.1:1/mcp", "--", "true"},
		{"-url", "http://127.0.0.1:1/mcp", "--", "true"},
		{"-http"},
		{"-http", "-phases", "seq,pipe", "--", "true"},
		{"-phases", "conc", "--", "true"},
		{"-http", "-era", "2025", "--", "true"},
		{"-compare", "-rounds", "2", "a.json", "b.json", "c.json"},
	} {
		if code := mainErr(args, io.Discard, io.Discard); code != 2 {
			t.Errorf("mainErr(%q) = %d, want 2", args, code)
		}
	}
}

func TestWriteRounds(t *testing.T) {
	rep := func(name string, cps float64) *Report {
		return &Report{Name: name, Concurrent: &RateResult{OK: 1, CallsPerSec: cps, CPUUSPerCall: -1}}
	}
	// Round 2 lists the servers in another order: matched by name.
	reps := []*Report{rep("a", 400), rep("b", 100), rep("b", 200), rep("a", 200)}
	var buf bytes.Buffer
	if err := writeRounds(&buf, reps, 2); err != nil {
		t.Fatal(err)
	}
	var row string
	for line := range strings.Lines(buf.String()) {
		if strings.HasPrefix(line, "concurrent calls/s") {
			row = strings.Join(strings.Fields(line), " ")
		}
	}
	// Medians 300 and 150; ratios 4 and 1, geometric mean 2.
	if want := "concurrent calls/s higher 300 150 4.00x 1.00x 2.00x"; row != want {
		t.Errorf("row %q, want %q\n%s", row, want, buf.String())
	}
	if strings.Contains(buf.String(), "pipelined") {
		t.Errorf("rows of phases no report has:\n%s", buf.String())
	}
	if err := writeRounds(&buf, []*Report{rep("a", 1), rep("b", 1), rep("a", 1), rep("c", 1)}, 2); err == nil {
		t.Error("a round without server b: want error")
	}
}
