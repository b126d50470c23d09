package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// httpSteps run after the stdio session, against the same binary serving
// Streamable HTTP, and only with -all: they are numbered after steps.
var httpSteps = []step{
	{"Streamable HTTP: the same binary with -http 127.0.0.1:0 (one endpoint, both eras)",
		"2026-07-28 in one POST: headers mirror the body; progress comes as SSE events before the result", (*session).httpModern, allOnly, nil},
	{"", "A legacy session: initialize gets an Mcp-Session-Id (cut: it is random), DELETE ends it, SIGTERM stops the server", (*session).httpLegacy, allOnly, nil},
	{"Sign-in: the same binary with -http 127.0.0.1:0 -auth dev (a development authorization server approves every request)",
		"package client with client/signin: 401, discovery, dynamic registration, PKCE, the token, then the call", (*session).httpSignIn, allOnly, nil},
}

// httpServer is cmd/everything serving HTTP.
type httpServer struct {
	cmd    *exec.Cmd
	url    string
	client *http.Client
}

// startHTTP starts bin -http on a free loopback port and waits for the
// line naming its URL.
func startHTTP(bin string, timeout time.Duration, extra ...string) (*httpServer, error) {
	cmd := exec.Command(bin, append([]string{"-http", "127.0.0.1:0", "-watch-interval", "0"}, extra...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), "listening on "); ok {
				found <- url
				break
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	select {
	case url := <-found:
		return &httpServer{cmd: cmd, url: url, client: &http.Client{Timeout: timeout}}, nil
	case <-time.After(timeout):
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("no listening line within %s", timeout)
	}
}

// exchange sends one HTTP request, printing it (a summary of its method,
// path and MCP headers, then its body) and the response (status, type,
// the headers that matter, then each body line or SSE data line).
func (s *session) exchange(method string, headers map[string]string, body string) (status int, hdr http.Header, lines []string) {
	req, _ := http.NewRequestWithContext(context.Background(), method, s.http.url, strings.NewReader(body))
	var shown []string
	for _, k := range []string{"MCP-Protocol-Version", "Mcp-Method", "Mcp-Name", "Mcp-Session-Id"} {
		if v, ok := headers[k]; ok {
			req.Header.Set(k, v)
			if k == "Mcp-Session-Id" {
				v = sessionShown(v)
			}
			shown = append(shown, k+": "+v)
		}
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	s.httpLine(false, strings.TrimSpace(method+" /mcp  "+strings.Join(shown, " · ")))
	if body != "" {
		s.httpLine(false, body)
	}
	resp, err := s.http.client.Do(req)
	if !s.check(err == nil, "%s: %v", method, err) {
		return 0, nil, nil
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	head := fmt.Sprintf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
		head += " · Mcp-Session-Id: " + sessionShown(sid)
	}
	s.httpLine(true, strings.TrimSpace(head))
	for _, l := range strings.Split(string(bytes.TrimSpace(data)), "\n") {
		if d, ok := strings.CutPrefix(l, "data: "); ok {
			l = d
		} else if resp.Header.Get("Content-Type") == "text/event-stream" {
			continue // ids, event names and keep-alives
		}
		if l != "" {
			lines = append(lines, l)
			s.httpLine(true, l)
		}
	}
	return resp.StatusCode, resp.Header, lines
}

// sessionShown stands for a session id, which is random per run.
func sessionShown(id string) string { return fmt.Sprintf("(%d random hex digits)", len(id)) }

// httpLine prints and records one HTTP line.
func (s *session) httpLine(fromServer bool, line string) {
	shown := clip([]byte(line), s.limit)
	s.wire = append(s.wire, wireLine{fromServer: fromServer, raw: []byte(line), shown: shown})
	if fromServer {
		s.p.server(shown, strings.Contains(line, `"error"`))
	} else {
		s.p.client(shown)
	}
}

// httpModern starts the HTTP server and makes one 2026-07-28 call with
// progress.
func (s *session) httpModern() {
	srv, err := startHTTP(s.bin, s.timeout)
	if !s.check(err == nil, "starting everything -http: %v", err) {
		return
	}
	s.http = srv
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_tool_with_progress","arguments":{},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"` + modernVersion + `","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p"}}}`
	status, hdr, lines := s.exchange(http.MethodPost, map[string]string{
		"MCP-Protocol-Version": modernVersion, "Mcp-Method": "tools/call", "Mcp-Name": "test_tool_with_progress"}, body)
	s.check(status == http.StatusOK && hdr.Get("Content-Type") == "text/event-stream", "the call answered %d %s, want 200 and an event stream", status, hdr.Get("Content-Type"))
	s.check(len(lines) >= 2 && strings.Contains(lines[0], "notifications/progress") && strings.Contains(lines[len(lines)-1], `"resultType":"complete"`),
		"the stream is not progress, then the complete result")
}

// httpLegacy opens and ends a legacy session, then stops the server.
func (s *session) httpLegacy() {
	if s.http == nil {
		return
	}
	defer s.stopHTTP()
	status, hdr, _ := s.exchange(http.MethodPost, map[string]string{},
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+legacyVersion+`","capabilities":{},"clientInfo":{"name":"mcpwire-demo","version":"1.0.0"}}}`)
	sid := hdr.Get("Mcp-Session-Id")
	if !s.check(status == http.StatusOK && len(sid) >= 16, "initialize answered %d with session id %q", status, sid) {
		return
	}
	status, _, _ = s.exchange(http.MethodDelete, map[string]string{"Mcp-Session-Id": sid}, "")
	s.check(status == http.StatusNoContent, "DELETE answered %d, want 204", status)
}

// stopHTTP sends SIGTERM and checks a clean exit.
func (s *session) stopHTTP() {
	s.p.clientEvent("SIGTERM")
	s.http.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- s.http.cmd.Wait() }()
	select {
	case err := <-done:
		if s.check(err == nil, "the HTTP server exited with %v", err) {
			s.p.serverEvent("exits with status 0")
		}
	case <-time.After(s.timeout):
		s.check(false, "the HTTP server did not exit within %s of SIGTERM", s.timeout)
		s.http.cmd.Process.Kill()
	}
	s.http = nil
}
