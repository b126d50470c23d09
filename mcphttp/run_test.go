package mcphttp_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/leakcheck"
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
	if !strings.HasSuffix(url, mcphttp.DefaultPath) {
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
