// Package gatewaydeploy_test deploys mcpwire gateway on loopback in front
// of three servers, two of which we did not write, and drives it with
// go-sdk's client and mcpwire's: go-sdk's echo server and the npm
// @modelcontextprotocol/server-everything over stdio, cmd/everything over
// Streamable HTTP, the gateway itself over Streamable HTTP. interop/run.sh
// runs it with the binaries it built (GATEWAY_DEPLOY_BIN: a directory
// holding mcpwire and sdk-gosdk; GATEWAY_DEPLOY_SERVER: cmd/everything,
// by default the directory's everything; GATEWAY_DEPLOY_EVERYTHING_JS:
// server-everything's dist/index.js; NODE: node); without them the test
// is skipped.
package gatewaydeploy_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/interop/go/internal/harness"
	"github.com/mcpwire/mcpwire/protocol"
)

// gatewayURL matches the line mcpwire gateway logs once it listens.
var gatewayURL = regexp.MustCompile(`msg="mcpwire gateway: serving" url=(http://\S+)`)

type deployment struct {
	url      string
	upstream *harness.Server // cmd/everything -http
	stderr   *syncBuffer     // the gateway's
}

func deploy(t *testing.T) *deployment {
	t.Helper()
	bin, js := os.Getenv("GATEWAY_DEPLOY_BIN"), os.Getenv("GATEWAY_DEPLOY_EVERYTHING_JS")
	if bin == "" || js == "" {
		t.Skip("GATEWAY_DEPLOY_BIN and GATEWAY_DEPLOY_EVERYTHING_JS are not set (interop/run.sh sets them)")
	}
	node := os.Getenv("NODE")
	if node == "" {
		node = "node"
	}
	server := os.Getenv("GATEWAY_DEPLOY_SERVER")
	if server == "" {
		server = filepath.Join(bin, "everything")
	}
	up, err := harness.StartHTTP(30*time.Second, server, "-page-size", "1000", "-watch-interval", "0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(up.Kill)
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	cfg := fmt.Sprintf(`pageSize: 1000
upstreams:
  - name: gosdk
    command: [%s]
  - name: npm
    command: [%s, %s, "stdio"]
  - name: everything
    url: %s
`, quote(filepath.Join(bin, "sdk-gosdk")), quote(node), quote(js), up.URL)
	file := filepath.Join(t.TempDir(), "gateway.yaml")
	if err := os.WriteFile(file, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(bin, "mcpwire"), "gateway", "--config", file, "--http", "127.0.0.1:0")
	d := &deployment{upstream: up, stderr: &syncBuffer{}}
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); pw.Close() }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("the gateway did not exit cleanly: %v; stderr:\n%s", err, d.stderr)
			}
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Errorf("the gateway did not exit within 20 s of SIGINT")
		}
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			d.stderr.add(sc.Text() + "\n")
			if m := gatewayURL.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case d.url = <-found:
	case err := <-exited:
		t.Fatalf("the gateway exited at start (%v):\n%s", err, d.stderr)
	case <-time.After(60 * time.Second):
		t.Fatalf("the gateway did not listen within 60 s:\n%s", d.stderr)
	}
	return d
}

// syncBuffer collects text from one goroutine for others to read.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) add(text string) { s.mu.Lock(); s.b.WriteString(text); s.mu.Unlock() }
func (s *syncBuffer) String() string  { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func bounded(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}

func textOf(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, " ")
}

// One endpoint for three servers: go-sdk's client lists every upstream's
// tools under its namespace and calls each one's echo; a legacy stdio
// upstream's sampling request reaches the (2026-07-28) go-sdk client and
// back; mcpwire's client, its gates on, admits everything the gateway
// serves; an upstream killed mid-call fails that call naming it while
// calls to the others carry on.
func TestGatewayDeployment(t *testing.T) {
	d := deploy(t)
	ctx := bounded(t, 3*time.Minute)

	sampled := make(chan struct{}, 1)
	gc := mcp.NewClient(&mcp.Implementation{Name: "gateway-deploy", Version: "0"}, &mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			sampled <- struct{}{}
			return &mcp.CreateMessageResult{Role: "assistant", Content: &mcp.TextContent{Text: "sampled through the gateway"}, Model: "m"}, nil
		},
	})
	cs, err := gc.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: d.url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	var tools []string
	for tl, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tl.Name)
	}
	for _, want := range []string{"gosdk_echo", "npm_echo", "everything_echo", "everything_slow", "npm_trigger-sampling-request"} {
		if !slices.Contains(tools, want) {
			t.Errorf("tools/list through the gateway lacks %s: %v", want, tools)
		}
	}
	echo := func(ctx context.Context, name string, args map[string]any) (string, error) {
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			return "", err
		}
		if r.IsError {
			return "", fmt.Errorf("%s: isError: %s", name, textOf(r))
		}
		return textOf(r), nil
	}
	for name, args := range map[string]map[string]any{
		"gosdk_echo":      {"text": "via gosdk"},
		"npm_echo":        {"message": "via npm"},
		"everything_echo": {"text": "via everything"},
	} {
		got, err := echo(ctx, name, args)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if !strings.Contains(got, "via ") {
			t.Errorf("%s answered %q", name, got)
		}
	}
	got, err := echo(ctx, "npm_trigger-sampling-request", map[string]any{"prompt": "hello", "maxTokens": 20})
	if err != nil {
		t.Errorf("a legacy upstream's sampling through the gateway: %v", err)
	} else if !strings.Contains(got, "sampled through the gateway") {
		t.Errorf("the sampling tool answered %q, want the client's answer in it", got)
	}
	select {
	case <-sampled:
	default:
		t.Error("the client was never asked to sample")
	}

	// mcpwire's client with its gates on: nothing refused.
	mc, err := client.Connect(ctx, client.HTTP{URL: d.url}, &client.Options{Era: protocol.Modern})
	if err != nil {
		t.Fatal(err)
	}
	defer mc.Close()
	n := 0
	for _, err := range mc.Tools(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	for _, err := range mc.Resources(ctx) {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, err := range mc.Prompts(ctx) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if f := mc.Findings(); len(f) > 0 || n != len(tools) {
		t.Errorf("mcpwire's client admitted %d of %d tools; findings %v", n, len(tools), f)
	}

	// cmd/everything killed mid-call.
	slow := make(chan error, 1)
	go func() {
		_, err := echo(ctx, "everything_slow", map[string]any{"steps": 200, "delay_ms": 100})
		slow <- err
	}()
	time.Sleep(500 * time.Millisecond) // the call is under way (20 s of work)
	d.upstream.Kill()
	select {
	case err := <-slow:
		if err == nil || !strings.Contains(err.Error(), `"everything"`) {
			t.Errorf("the call whose upstream was killed: %v, want an error naming the upstream", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the call whose upstream was killed never ended")
	}
	for i := range 5 {
		if got, err := echo(ctx, "gosdk_echo", map[string]any{"text": fmt.Sprint("after ", i)}); err != nil || got != fmt.Sprint("after ", i) {
			t.Errorf("another upstream's call after the kill: %q, %v", got, err)
		}
	}
	if _, err := echo(ctx, "everything_echo", map[string]any{"text": "x"}); err == nil || !strings.Contains(err.Error(), `"everything"`) {
		t.Errorf("a call to the killed upstream: %v, want an error naming it", err)
	}
}
