package mcphttp_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/internal/testsupport/syncbuf"
	"github.com/mcpwire/mcpwire/mcphttp"
)

// Serve answers at its path until its context ends, then returns nil, with
// no goroutine left behind.
func TestServe(t *testing.T) {
	defer leakcheck.Check(t, leakcheck.Snapshot())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- mcphttp.Serve(ctx, ln, newServer(t, progressTool()), &mcphttp.ServeOptions{
			Grace: 100 * time.Millisecond, OnListen: func(u string) { urls <- u },
		})
	}()
	url := <-urls
	if !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("url %s", url)
	}
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(modernBody(1, "server/discover", nil, nil)))
	req.Header = modernHeaders("server/discover", "")
	client := &http.Client{Transport: &http.Transport{}}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"supportedVersions"`) {
		t.Fatalf("discover: %d %s", resp.StatusCode, body)
	}
	client.CloseIdleConnections()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Serve did not return after its context ended")
	}
}

// Serve warns when it listens beyond loopback with no AllowedHosts, and
// only then.
func TestServeWarnsBeyondLoopback(t *testing.T) {
	for _, tc := range []struct {
		addr  string
		hosts []string
		warn  bool
	}{
		{"0.0.0.0:0", nil, true},
		{"0.0.0.0:0", []string{"mcp.example.com"}, false},
		{"127.0.0.1:0", nil, false},
	} {
		ln, err := net.Listen("tcp", tc.addr)
		if err != nil {
			t.Fatal(err)
		}
		var logged syncbuf.Buffer
		ctx, cancel := context.WithCancel(context.Background())
		opts := &mcphttp.ServeOptions{Grace: 100 * time.Millisecond, OnListen: func(string) { cancel() }}
		opts.AllowedHosts = tc.hosts
		opts.Logger = slog.New(slog.NewTextHandler(&logged, nil))
		if err := mcphttp.Serve(ctx, ln, newServer(t), opts); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(logged.String(), "listening beyond loopback"); got != tc.warn {
			t.Errorf("%s with AllowedHosts %q: warned %v, want %v:\n%s", tc.addr, tc.hosts, got, tc.warn, logged.String())
		}
	}
}
