package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/internal/testsupport/syncbuf"
	"github.com/mcpwire/mcpwire/protocol"
)

// mcpwire gateway --http fronts cmd/hello (stdio, a command in the
// configuration, with ${VAR} from the environment), and stops cleanly
// when its context ends.
func TestGatewayCommand(t *testing.T) {
	dir := t.TempDir()
	hello := filepath.Join(dir, "hello")
	if out, err := exec.Command("go", "build", "-o", hello, "../hello").CombinedOutput(); err != nil {
		t.Fatalf("building cmd/hello: %v\n%s", err, out)
	}
	t.Setenv("HELLO_BIN", hello)
	config := filepath.Join(dir, "gateway.yaml")
	os.WriteFile(config, []byte("upstreams:\n  - name: hello\n    command: [\"${HELLO_BIN}\"]\n    env: {LOG_LEVEL: debug}\n"), 0o644)

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var stderr syncbuf.Buffer
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, []string{"gateway", "--config", config, "--http", "127.0.0.1:0"}, &stderr, &stderr)
	}()
	serving := regexp.MustCompile(`url=(http://\S+)`)
	var url string
	for deadline := time.Now().Add(30 * time.Second); url == ""; time.Sleep(20 * time.Millisecond) {
		if m := serving.FindStringSubmatch(stderr.String()); m != nil {
			url = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("the gateway never served:\n%s", stderr.String())
		}
		select {
		case code := <-exit:
			t.Fatalf("the gateway exited %d:\n%s", code, stderr.String())
		default:
		}
	}
	cctx, ccancel := context.WithTimeout(ctx, 20*time.Second)
	defer ccancel()
	c, err := client.Connect(cctx, client.HTTP{URL: url}, &client.Options{Era: protocol.Modern})
	if err != nil {
		t.Fatal(err)
	}
	var tools []string
	for tl, err := range c.Tools(cctx) {
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tl.Name)
	}
	c.Close()
	if len(tools) == 0 || !strings.HasPrefix(tools[0], "hello_") {
		t.Fatalf("tools through the gateway: %v", tools)
	}
	cancel()
	select {
	case code := <-exit:
		if code != exitOK {
			t.Fatalf("exit %d after its context ended:\n%s", code, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the gateway did not stop")
	}
}

// A configuration it cannot use stops it at once, with exit 2 and the
// reason.
func TestGatewayCommandRefuses(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct{ config, say string }{
		"missing variable": {"upstreams:\n  - name: r\n    url: http://127.0.0.1:1/mcp\n    headers: {Authorization: \"Bearer ${MCPWIRE_TEST_UNSET}\"}\n", "MCPWIRE_TEST_UNSET"},
		"unknown field":    {"upstreams:\n  - name: r\n    comand: [x]\n", "comand"},
		"both":             {"upstreams:\n  - name: r\n    command: [x]\n    url: http://x\n", "exactly one of command and url"},
		"none":             {"upstreams: []\n", "lists no upstream"},
		"unreachable":      {"upstreams:\n  - name: gone\n    command: [\"/nonexistent/server\"]\n", `upstream "gone"`},
	} {
		t.Run(name, func(t *testing.T) {
			config := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".yaml")
			os.WriteFile(config, []byte(tc.config), 0o644)
			var stdout, stderr syncbuf.Buffer
			code := run(t.Context(), []string{"gateway", "--config", config}, &stdout, &stderr)
			if code != exitNotRun || !strings.Contains(stderr.String(), tc.say) || stdout.String() != "" {
				t.Fatalf("exit %d, stderr %q; want 2 saying %q", code, stderr.String(), tc.say)
			}
		})
	}
}
