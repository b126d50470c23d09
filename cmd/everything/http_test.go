package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// With -http 127.0.0.1:0 the binary logs the URL it really serves, answers
// a 2026-07-28 tools/call and a legacy initialize there, and on SIGTERM
// shuts down and exits with status 0.
func TestHTTPServesBothErasAndStopsOnSignal(t *testing.T) {
	cmd, url := startHTTP(t)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || strings.HasPrefix(url, "http://127.0.0.1:0/") || !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("listening on %q, want http://127.0.0.1:PORT/mcp with the bound port", url)
	}

	// 2026-07-28: stateless, the era in each request's _meta and headers.
	modern := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_simple_text","arguments":{},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},` +
		`"io.modelcontextprotocol/clientInfo":{"name":"http-test","version":"1"}}}}`
	resp, msg := post(t, url, modern, map[string]string{
		"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "test_simple_text",
	})
	var call struct {
		ID     int `json:"id"`
		Result struct {
			ResultType string `json:"resultType"`
			Content    []struct{ Type, Text string }
		}
	}
	if err := json.Unmarshal(msg, &call); err != nil || resp.StatusCode != http.StatusOK || call.ID != 1 ||
		call.Result.ResultType != "complete" || len(call.Result.Content) != 1 ||
		call.Result.Content[0].Text != "This is a simple text response for testing." {
		t.Errorf("2026-07-28 tools/call: HTTP %d, %s (%v); want 200 and the complete text result", resp.StatusCode, msg, err)
	}

	// Legacy: initialize opens a session.
	legacy := `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},` +
		`"clientInfo":{"name":"http-test","version":"1"}}}`
	resp, msg = post(t, url, legacy, nil)
	var init struct {
		ID     int `json:"id"`
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
			ServerInfo      struct{ Name string }
		}
	}
	if err := json.Unmarshal(msg, &init); err != nil || resp.StatusCode != http.StatusOK || init.ID != 2 ||
		init.Result.ProtocolVersion != "2025-11-25" || init.Result.ServerInfo.Name != "mcpwire-everything" {
		t.Errorf("initialize: HTTP %d, %s (%v); want 200 and the 2025-11-25 initialize result", resp.StatusCode, msg, err)
	}
	if resp.Header.Get("Mcp-Session-Id") == "" {
		t.Errorf("initialize: no Mcp-Session-Id header (headers %v)", resp.Header)
	}

	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	awaitCleanExit(t, cmd)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("exit took %v after SIGTERM, want it within the grace period (1s) and its margin", d)
	}
}

// listeningURL reads the server's stderr up to the line naming the URL it
// serves and returns that URL; the rest of stderr is drained in the
// background.
func listeningURL(t *testing.T, stderr io.Reader) string {
	t.Helper()
	const prefix = "listening on "
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), prefix); ok && !sent {
				found <- strings.TrimSpace(url)
				sent = true
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case url, ok := <-found:
		if !ok {
			t.Fatal("the server exited without logging where it listens")
		}
		return url
	case <-time.After(10 * time.Second):
		t.Fatal("the server logged no listening address within 10s")
	}
	return ""
}

// post sends one JSON-RPC message and returns the response and the
// JSON-RPC response in it, whether the server answered with JSON or with
// an SSE stream (whose last data event carrying an id is the response).
func post(t *testing.T, url, body string, headers map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("POST %s: reading the body: %v", url, err)
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return resp, data
	}
	var last []byte
	for line := range bytes.Lines(data) {
		if ev, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r\n"), []byte("data:")); ok {
			ev = bytes.TrimSpace(ev)
			if bytes.Contains(ev, []byte(`"id"`)) {
				last = ev
			}
		}
	}
	if last == nil {
		t.Fatalf("POST %s: SSE stream without a response: %q", url, data)
	}
	return resp, last
}

// SIGTERM with a subscriptions/listen stream open and a call in flight:
// the stream ends with its graceful result, the call finishes within the
// grace period with its result, and the process exits 0 promptly; an open
// SSE stream does not hold the shutdown up.
func TestHTTPShutdownEndsStreams(t *testing.T) {
	cmd, url := startHTTP(t)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	type answer struct {
		msg []byte
		err error
	}
	stream := func(body string, headers map[string]string) chan answer {
		done := make(chan answer, 1)
		go func() {
			req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", "2026-07-28")
			for k, v := range headers {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				done <- answer{err: err}
				return
			}
			defer resp.Body.Close()
			data, err := io.ReadAll(resp.Body)
			done <- answer{data, err}
		}()
		return done
	}
	listen := stream(`{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},`+meta+`}}`,
		map[string]string{"Mcp-Method": "subscriptions/listen"})
	slow := stream(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow","arguments":{"steps":3,"delay_ms":100},`+meta+`}}`,
		map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "slow"})
	time.Sleep(150 * time.Millisecond) // both are being served

	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for name, ch := range map[string]chan answer{"listen": listen, "slow call": slow} {
		select {
		case a := <-ch:
			if a.err != nil || !bytes.Contains(a.msg, []byte(`"result"`)) {
				t.Errorf("%s after SIGTERM: %q, %v; want its result", name, a.msg, a.err)
			}
			if name == "slow call" && !bytes.Contains(a.msg, []byte("done: 3 steps")) {
				t.Errorf("slow call after SIGTERM: %q; want it finished within the grace period", a.msg)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: no answer 5s after SIGTERM", name)
		}
	}
	awaitCleanExit(t, cmd)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("exit took %v after SIGTERM with a listen stream open, want well within the grace period and its margin", d)
	}
}

// awaitCleanExit waits up to 5 s for cmd, signalled to stop, to exit with
// status 0.
func awaitCleanExit(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v, want status 0", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("still running 5s after SIGTERM")
	}
}

// startHTTP starts the binary with -http 127.0.0.1:0 and the extra flags
// and returns it with the URL it logs; the process is killed when the
// test ends, should it still run.
func startHTTP(t *testing.T, extra ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(binPath, append([]string{"-http", "127.0.0.1:0", "-watch-interval", "0"}, extra...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, listeningURL(t, stderr)
}
