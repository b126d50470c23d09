package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// startHTTP runs bin with -http 127.0.0.1:0 and returns the URL it logs
// once it listens; the process is interrupted (then killed) at cleanup.
func startHTTP(t *testing.T, bin string) string {
	t.Helper()
	cmd := exec.Command(bin, "-http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "everything: listening on "); ok {
				found <- strings.TrimSpace(u)
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	select {
	case u := <-found:
		return u
	case <-time.After(30 * time.Second):
		t.Fatal("everything -http logged no URL")
	}
	return ""
}

// TestURLEverything: the reviewer admits cmd/everything over Streamable
// HTTP in every era, read-only calls only and with --call-all (each run
// on a server of its own: --call-all changes the server's tools). The
// legacy run goes through a session, its GET stream, server requests on
// POST streams, and test_reconnection's stream resumed with Last-Event-ID.
func TestURLEverything(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := goBuild(t, "../everything", dir, "."); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "everything")
	for _, era := range []string{"auto", "legacy", "modern"} {
		for _, flags := range [][]string{nil, {"--call-all"}} {
			t.Run(strings.Join(append([]string{era}, flags...), " "), func(t *testing.T) {
				t.Parallel()
				u := startHTTP(t, bin)
				res := runCheckCmd(t, append([]string{"check", "--json", "--era", era, "--url", u}, flags...)...)
				d := decode(t, res.stdout)
				if res.exit != exitOK || d.Verdict != "admitted" {
					t.Fatalf("exit %d, verdict %q, rules %q, want 0\n%s", res.exit, d.Verdict, d.rules(), res.stdout)
				}
				want := "modern"
				if era == "legacy" {
					want = "legacy"
				}
				called := 0
				for _, tr := range d.Tools {
					if tr.Called {
						called++
					}
				}
				if d.Transport != "streamable-http" || d.Era != want || d.Server.Name != "mcpwire-everything" || d.Pages["tools"] < 2 ||
					len(d.Resources) == 0 || len(d.Prompts) == 0 || called < 2 || (flags != nil && called < 20) {
					t.Errorf("transport %q, era %q, server %+v, pages %v, %d tools (%d called)", d.Transport, d.Era, d.Server, d.Pages, len(d.Tools), called)
				}
				if flags != nil && era == "legacy" && d.tool(t, "test_reconnection").Outcome != outcomeSuccess {
					t.Errorf("test_reconnection: %+v", d.tool(t, "test_reconnection"))
				}
			})
		}
	}
	t.Run("table", func(t *testing.T) {
		t.Parallel()
		u := startHTTP(t, bin)
		res := runCheckCmd(t, "check", "--url", u)
		for _, want := range []string{"mcpwire check: mcpwire-everything", u + ", Streamable HTTP", "TOOL ", "verdict: admitted"} {
			if !strings.Contains(res.stdout, want) {
				t.Errorf("the table lacks %q:\n%s", want, res.stdout)
			}
		}
		if res.exit != exitOK {
			t.Errorf("exit %d", res.exit)
		}
	})
}

// inProcess serves a small mcp.Server over mcphttp behind wrap (nil: as
// it is) and returns its URL.
func inProcess(t *testing.T, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := mcp.NewServer(mcp.Implementation{Name: "small", Version: "1"}, &mcp.Options{Logger: quiet, ShutdownGrace: 100 * time.Millisecond})
	srv.MustAddTool(tool.New("hello", "Says hello.", func(context.Context, struct{}) (string, error) { return "hello", nil },
		tool.ReadOnly(true)))
	srv.MustAddTool(tool.New("greet", "Greets someone.", func(_ context.Context, in struct {
		Name string `json:"name"`
	}) (string, error) {
		return "hello " + in.Name, nil
	}))
	var h http.Handler = mcphttp.NewHandler(srv, &mcphttp.Options{Logger: quiet})
	if wrap != nil {
		h = wrap(h)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// body reads a POST's body and puts it back; it returns its JSON-RPC
// method and whether its params._meta names a 2026-07-28 version.
func body(r *http.Request) (method string, modern bool) {
	b, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	var m struct {
		Method string `json:"method"`
		Params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	json.Unmarshal(b, &m)
	return m.Method, m.Params.Meta[protocol.MetaProtocolVersion] != nil
}

// legacyOnly refuses 2026-07-28 requests as a legacy server does (400 and
// an id-less JSON-RPC error, no session), serving the rest with h.
func legacyOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, modern := body(r); modern && r.Method == http.MethodPost {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}`)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// A legacy-only HTTP server is reviewed in the legacy era, its refusal of
// server/discover no finding.
func TestURLLegacyOnly(t *testing.T) {
	t.Parallel()
	u := inProcess(t, legacyOnly)
	res := runCheckCmd(t, "check", "--json", "--url", u)
	d := decode(t, res.stdout)
	if res.exit != exitOK || d.Era != "legacy" || d.Detection.Discover != "refused" || !d.tool(t, "hello").Called || d.tool(t, "greet").Called {
		t.Fatalf("exit %d, era %q, detection %+v, rules %q\n%s", res.exit, d.Era, d.Detection, d.rules(), res.stdout)
	}
}

// What an HTTP server gets wrong: the review cannot run (exit 2) when the
// URL answers no MCP at all, and finds it (exit 1) when the session works
// but an exchange breaks the transport's rules.
func TestURLFailures(t *testing.T) {
	t.Parallel()
	page := func(http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, "<!doctype html><title>Not here</title>")
		})
	}
	for _, c := range []struct {
		name  string
		url   func(t *testing.T) string
		args  []string
		exit  int
		rules string   // the rules found, joined with ","
		say   []string // in the --json document
	}{
		{"web page", func(t *testing.T) string { return inProcess(t, page) }, nil, exitNotRun, "",
			[]string{`"stage": "connect"`, "404 Not Found, text/html", "Not here", "an MCP endpoint?"}},
		{"web page, modern", func(t *testing.T) string { return inProcess(t, page) }, []string{"--era", "modern"}, exitNotRun, "",
			[]string{"HTTP 404 Not Found, text/html"}},
		{"web page 200, modern", func(t *testing.T) string { return inProcess(t, page200) }, []string{"--era", "modern"}, exitNotRun, "",
			[]string{"the HTTP response to server/discover was 200 OK, text/html", "Welcome", "an MCP endpoint?"}},
		{"unreachable", closedURL, nil, exitNotRun, "", []string{"cannot reach", "connection refused"}},
		{"notification answered 200", func(t *testing.T) string { return inProcess(t, notAccepted) }, []string{"--era", "legacy"}, exitRejected, ruleHTTP,
			[]string{"notifications/initialized was answered 200 OK"}},
		{"garbage event", func(t *testing.T) string { return inProcess(t, garbage) }, nil, exitRejected, "wire-message",
			[]string{"an invalid message"}},
		{"tools/call 500", func(t *testing.T) string { return inProcess(t, callFails) }, nil, exitRejected, "call-failed,wire-message",
			[]string{"500 Internal Server Error, text/plain", "boom"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := runCheckCmd(t, append(append([]string{"check", "--json"}, c.args...), "--url", c.url(t))...)
			d := decode(t, res.stdout)
			if res.exit != c.exit || strings.Join(d.rules(), ",") != c.rules || d.Transport != "streamable-http" {
				t.Fatalf("exit %d, rules %q; want %d, %q\n%s", res.exit, d.rules(), c.exit, c.rules, res.stdout)
			}
			for _, s := range c.say {
				if !strings.Contains(res.stdout, s) {
					t.Errorf("the report does not say %q:\n%s", s, res.stdout)
				}
			}
		})
	}
}

// page200 answers everything with a web page, as a catch-all site does.
func page200(http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<!doctype html><title>Welcome</title><p>"+strings.Repeat("Lorem ipsum. ", 40))
	})
}

// closedURL is a URL nothing listens at.
func closedURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return "http://" + l.Addr().String() + "/mcp"
}

// notAccepted answers 200 where the server answers 202.
func notAccepted(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(acceptedAsOK{w}, r) })
}

// acceptedAsOK writes 200 for 202.
type acceptedAsOK struct{ http.ResponseWriter }

// WriteHeader implements http.ResponseWriter.
func (w acceptedAsOK) WriteHeader(code int) {
	if code == http.StatusAccepted {
		code = http.StatusOK
	}
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController flush the stream beneath.
func (w acceptedAsOK) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// garbage answers tools/list on a stream whose first event is not JSON.
func garbage(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if m, _ := body(r); m != protocol.MethodListTools {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: this is not JSON\n\ndata: "+strings.TrimSpace(rec.Body.String())+"\n\n")
	})
}

// callFails answers tools/call with a plain 500.
func callFails(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if m, _ := body(r); m == protocol.MethodCallTool {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// The command line of --url and --era.
func TestURLCommandLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		say  string
	}{
		{[]string{"check", "--url", "http://127.0.0.1:1/mcp", "--", "./server"}, "--url and a server command are exclusive"},
		{[]string{"check", "--url", "ftp://host/mcp"}, "want an http:// or https:// URL"},
		{[]string{"check", "--url", "localhost:8080"}, "want an http:// or https:// URL"},
		{[]string{"check", "--era", "2025", "--", "./server"}, `--era "2025": want auto, legacy or modern`},
	} {
		res := runCheckCmd(t, c.args...)
		if res.exit != exitNotRun || res.stdout != "" || !strings.Contains(res.stderr, c.say) || !strings.Contains(res.stderr, "Usage:") {
			t.Errorf("mcpwire %q: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, res.exit, res.stdout, res.stderr, c.say)
		}
	}
}

// TestURLNoLeaks: a review over HTTP leaves no goroutine behind, whether
// it ran, found garbage, or could not run. It is not parallel, so that the
// goroutines it counts are its own.
func TestURLNoLeaks(t *testing.T) {
	urls := []string{inProcess(t, nil), inProcess(t, legacyOnly), inProcess(t, garbage), inProcess(t, callFails), closedURL(t)}
	for _, u := range urls {
		runCheckCmd(t, "check", "--era", "legacy", "--url", u) // mcphttp starts its session janitor, which lives on
	}
	for _, u := range urls {
		for _, era := range []string{"auto", "legacy"} {
			before := leakcheck.Snapshot()
			res := runCheckCmd(t, "check", "--call-all", "--era", era, "--url", u)
			if res.exit == exitOK && u == urls[len(urls)-1] {
				t.Errorf("%s: exit 0", u)
			}
			leakcheck.Check(t, before)
		}
	}
}
