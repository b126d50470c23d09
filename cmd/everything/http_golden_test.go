package main

import (
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/peer/golden"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
)

// httpGoldenDir holds the Streamable HTTP transcripts (internal/peer/golden's
// HTTP format).
const httpGoldenDir = "../../testdata/http"

// httpConfigOf splits an HTTP transcript's config into the server's
// settings (the keys of stdio transcripts, see configOf) and the handler's
// options: max-body-bytes, max-sessions, max-stored-events and
// max-stored-event-bytes (integers), session-idle-timeout, keep-alive and
// retry-interval (durations), allowed-origins and allowed-hosts
// (comma-separated).
func httpConfigOf(t *testing.T, tr *golden.HTTPTranscript) (config, mcphttp.Options) {
	var opts mcphttp.Options
	server := &golden.Transcript{Path: tr.Path, Config: map[string]string{}}
	list := func(v string) []string {
		var out []string
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	for k, v := range tr.Config {
		var err error
		var n int
		switch k {
		case "max-body-bytes":
			n, err = strconv.Atoi(v)
			opts.MaxBodyBytes = int64(n)
		case "max-sessions":
			opts.MaxSessions, err = strconv.Atoi(v)
		case "max-stored-events":
			opts.MaxStoredEvents, err = strconv.Atoi(v)
		case "max-stored-event-bytes":
			n, err = strconv.Atoi(v)
			opts.MaxStoredEventBytes = int64(n)
		case "session-idle-timeout":
			opts.SessionIdleTimeout, err = positiveDuration(v)
		case "keep-alive":
			opts.KeepAlive, err = positiveDuration(v)
		case "retry-interval":
			opts.RetryInterval, err = positiveDuration(v)
		case "allowed-origins":
			opts.AllowedOrigins = list(v)
		case "allowed-hosts":
			opts.AllowedHosts = list(v)
		default:
			server.Config[k] = v
		}
		if err != nil {
			t.Fatalf("%s: config %s: %v", tr.Path, k, err)
		}
	}
	return configOf(t, server), opts
}

// serveHTTPGolden serves the everything server the way inMemory builds it
// for stdio transcripts (fixtures, a temporary sandbox), plus
// test_reconnection, which serveHTTP registers for every HTTP server, with
// a Handler on an in-process httptest.Server. stop closes both.
func serveHTTPGolden(t *testing.T, c config, opts mcphttp.Options) (golden.HTTPTarget, func()) {
	caller, err := parseCaller(c.caller)
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(&mcp.Options{PageSize: c.pageSize, ShutdownGrace: c.grace, Logger: quietLogger(),
		Caller: caller, CompletionRate: c.completionRate,
		InputStateTTL: c.inputStateTTL, ClientRequestTimeout: c.clientRequestTimeout, TaskTTL: c.taskTTL}, t.TempDir(), true)
	if err := srv.AddTool(reconnectionTool()); err != nil {
		t.Fatal(err)
	}
	opts.Logger = quietLogger()
	h := mcphttp.NewHandler(srv.Server, &opts)
	ts := httptest.NewServer(h)
	target := golden.HTTPTarget{URL: ts.URL, Client: ts.Client(), Shutdown: h.Close}
	return target, func() {
		h.Close()
		ts.Close()
	}
}

// TestHTTPGolden replays every HTTP transcript against the everything
// server's Streamable HTTP handler; with -update (go test ./cmd/everything
// -run TestHTTPGolden -update) it first records the responses and rewrites
// the transcripts: read every change before keeping it. Every message the
// server sends is checked against the schema of its revision, and no
// goroutine may outlive a transcript.
func TestHTTPGolden(t *testing.T) {
	check := schemaChecker(t)
	files, err := filepath.Glob(filepath.Join(httpGoldenDir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no HTTP transcripts in %s (%v)", httpGoldenDir, err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		t.Run(name, func(t *testing.T) {
			golden.TestHTTPFile(t, path, *update, func(tr *golden.HTTPTranscript) (golden.HTTPTarget, func()) {
				c, opts := httpConfigOf(t, tr)
				return serveHTTPGolden(t, c, opts)
			}, check)
		})
	}
}
