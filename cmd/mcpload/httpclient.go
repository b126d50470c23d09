package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	json "github.com/goccy/go-json"
)

// The protocol revisions of the two HTTP eras.
const (
	// modernVersion is the stateless revision: every request stands alone
	// and carries its version in _meta and in the MCP-Protocol-Version
	// header.
	modernVersion = "2026-07-28"
	// legacyHTTPVersion is the revision asked for in the legacy era's
	// initialize; later requests carry the session id it returns.
	legacyHTTPVersion = "2025-11-25"
)

// httpClient makes MCP requests to one Streamable HTTP endpoint over the
// keep-alive connections of its connPool. All its methods are safe for
// concurrent use: the concurrent phase shares one client, and each of its
// callers holds one of the pool's connections at a time.
type httpClient struct {
	url       string
	pool      *connPool // nil when the URL cannot be measured
	err       error     // why pool is nil, returned by every request
	modern    bool
	version   string // the MCP-Protocol-Version header of every request after initialize
	session   string // the legacy session's Mcp-Session-Id, if the server sent one
	serverPID int
	nextID    atomic.Int64
	anom      anomalies
}

// newHTTPClient returns a client for rawURL that keeps up to conns
// connections alive, one per concurrent caller, and bounds each request by
// timeout. A URL the client cannot measure (an https one, say) gives a
// client whose every request, the handshake first, fails saying why.
func newHTTPClient(rawURL string, modern bool, conns int, timeout time.Duration) *httpClient {
	c := &httpClient{url: rawURL, modern: modern}
	u, err := url.Parse(rawURL)
	if err == nil {
		c.pool, err = newConnPool(u, conns, timeout)
	}
	if err != nil {
		c.err = fmt.Errorf("cannot measure %s: %w", rawURL, err)
	}
	if modern {
		c.version = modernVersion
	}
	return c
}

// The header lines every POST starts with.
const postHeader = "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"

// appendHeader appends the header lines of a POST of method, each ending
// in CRLF: the content type and Accept, then MCP-Protocol-Version (except
// on initialize) and, in the modern era, Mcp-Method and Mcp-Name or, in the
// legacy era, the session's Mcp-Session-Id.
func (c *httpClient) appendHeader(b []byte, method string) []byte {
	b = append(b, postHeader...)
	if c.version != "" && method != "initialize" {
		b = appendHeaderLine(b, "MCP-Protocol-Version", c.version)
	}
	if c.modern {
		b = appendHeaderLine(b, "Mcp-Method", method)
		if method == "tools/call" {
			b = appendHeaderLine(b, "Mcp-Name", "echo") // the only tool mcpload calls
		}
	} else if c.session != "" {
		b = appendHeaderLine(b, "Mcp-Session-Id", c.session)
	}
	return b
}

// appendHeaderLine appends "name: value" and CRLF.
func appendHeaderLine(b []byte, name, value string) []byte {
	b = append(b, name...)
	b = append(b, ": "...)
	b = append(b, value...)
	return append(b, "\r\n"...)
}

// modernMeta is the _meta member of every 2026-07-28 request.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + modernVersion + `","io.modelcontextprotocol/clientCapabilities":{}}`

// params encodes the tools/call params that echo text: in the modern era
// with the _meta that names the revision and the (empty) client
// capabilities.
func (c *httpClient) params(text string) []byte {
	p := echoParams(text)
	if !c.modern {
		return p
	}
	b := make([]byte, 0, len(p)+len(modernMeta)+1)
	b = append(b, p[:len(p)-1]...)
	b = append(b, ',')
	b = append(b, modernMeta...)
	return append(b, '}')
}

func (c *httpClient) pid() int { return c.serverPID }

// echo makes one tools/call of the echo tool.
func (c *httpClient) echo(params []byte) (reply, error) {
	r, _, err := c.post("tools/call", params, false)
	return r, err
}

// post sends one request (or, with notify, a notification) and reads its
// reply: the JSON-RPC response from an application/json body or from a
// text/event-stream, where the messages before the response are counted as
// notifications or server requests. It returns the HTTP response's
// headers too. A JSON-RPC error in the body is returned in the reply, not
// as err.
func (c *httpClient) post(method string, params []byte, notify bool) (reply, http.Header, error) {
	if c.pool == nil {
		return reply{err: c.err}, nil, c.err
	}
	var id int64
	if !notify {
		id = c.nextID.Add(1)
	}
	b := appendMessage(make([]byte, 0, len(params)+64), id, method, params)
	var hb [256]byte
	header := c.appendHeader(hb[:0], method)

	sent := time.Now()
	resp, body, err := c.pool.do(http.MethodPost, header, b)
	recv := time.Now()
	if err != nil {
		err = classify(fmt.Errorf("POST %s: %w", c.url, err))
		var h http.Header
		if resp != nil {
			h = resp.Header
		}
		return reply{sent: sent, recv: recv, err: err}, h, err
	}
	r := reply{sent: sent, recv: recv}
	if notify {
		if resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusOK {
			r.err = fmt.Errorf("notification %s: HTTP status %d: %.200s", method, resp.StatusCode, body)
		}
		return r, resp.Header, r.err
	}
	msg, err := c.findResponse(resp, body, id)
	if err != nil {
		r.err = err
		return r, resp.Header, err
	}
	r.resp = msg
	if msg.Error == nil && resp.StatusCode != http.StatusOK {
		r.err = fmt.Errorf("HTTP status %d with a result", resp.StatusCode)
	}
	return r, resp.Header, r.err
}

// readBody reads and closes the body of resp.
func readBody(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	if n := resp.ContentLength; n > 0 && n < 1<<30 {
		b := make([]byte, n)
		_, err := io.ReadFull(resp.Body, b)
		return b, err
	}
	return io.ReadAll(resp.Body)
}

// findResponse returns the JSON-RPC response with the given id from the
// body of resp.
func (c *httpClient) findResponse(resp *http.Response, body []byte, id int64) (response, error) {
	ct := resp.Header.Get("Content-Type")
	if !strings.HasPrefix(ct, "text/event-stream") {
		var msg response
		if err := json.Unmarshal(body, &msg); err != nil || (len(msg.ID) == 0 && msg.Error == nil) {
			return response{}, fmt.Errorf("HTTP status %d, %s body is not a JSON-RPC response: %.200q", resp.StatusCode, ct, body)
		}
		if !matches(msg, id) {
			c.anom.unmatched.Add(1)
			return response{}, fmt.Errorf("response id %s, want %d", msg.ID, id)
		}
		return msg, nil
	}
	found := false
	var out response
	err := eachEvent(body, func(data []byte) {
		var msg response
		switch {
		case json.Unmarshal(data, &msg) != nil:
			c.anom.badLines.Add(1)
		case msg.Method != "" && (len(msg.ID) == 0 || string(msg.ID) == "null"):
			c.anom.notifications.Add(1)
		case msg.Method != "":
			c.anom.serverRequests.Add(1)
		case !found && matches(msg, id):
			out, found = msg, true
		default:
			c.anom.unmatched.Add(1)
		}
	})
	if err == nil && !found {
		err = fmt.Errorf("HTTP status %d: the event stream ended without the response", resp.StatusCode)
	}
	return out, err
}

// matches reports whether msg answers request id; an error response with
// a null id (the server could not read the request) counts as its answer.
func matches(msg response, id int64) bool {
	if string(msg.ID) == strconv.FormatInt(id, 10) {
		return true
	}
	return msg.Error != nil && (len(msg.ID) == 0 || string(msg.ID) == "null")
}

// eachEvent calls f with the data of every event in an event stream.
func eachEvent(stream []byte, f func(data []byte)) error {
	var data []byte
	for len(stream) > 0 {
		line := stream
		if i := bytes.IndexByte(stream, '\n'); i >= 0 {
			line, stream = stream[:i], stream[i+1:]
		} else {
			stream = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		switch {
		case len(line) == 0:
			if data != nil {
				f(data)
				data = nil
			}
		case bytes.HasPrefix(line, []byte("data:")):
			v := bytes.TrimPrefix(line[len("data:"):], []byte(" "))
			if data != nil {
				data = append(data, '\n')
			}
			data = append(data, v...)
		}
	}
	if data != nil {
		f(data)
	}
	return nil
}

// classify maps transport errors to the errors that end a phase: a timeout
// to errTimeout, a refused or reset connection to errServerGone.
func classify(err error) error {
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%w (%v)", errTimeout, err)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("%w (%v)", errServerGone, err)
	}
	return err
}

// handshake opens the exchange. In the legacy era that is initialize, which
// may return a session id, then notifications/initialized. The modern era
// has no handshake: the first echo call stands in for it, and the server
// names itself in the result's _meta.
func (c *httpClient) handshake() (ServerInfo, error) {
	if c.modern {
		r, err := c.echo(c.params(smallText))
		if err == nil {
			err = checkEcho(r, smallText)
		}
		if err != nil {
			return ServerInfo{}, fmt.Errorf("first call: %w", err)
		}
		var res struct {
			Meta struct {
				Server struct {
					Name    string `json:"name"`
					Version string `json:"version"`
				} `json:"io.modelcontextprotocol/serverInfo"`
			} `json:"_meta"`
		}
		_ = json.Unmarshal(r.resp.Result, &res)
		return ServerInfo{Name: res.Meta.Server.Name, Version: res.Meta.Server.Version,
			ProtocolVersion: modernVersion, HandshakeUS: micros(r.latency())}, nil
	}
	params := fmt.Appendf(nil, `{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"mcpload","version":"0"}}`, legacyHTTPVersion)
	r, hdr, err := c.post("initialize", params, false)
	if err == nil && r.resp.Error != nil {
		err = r.resp.Error
	}
	if err != nil {
		return ServerInfo{}, fmt.Errorf("initialize: %w", err)
	}
	info, err := initializeInfo(r.resp.Result)
	if err != nil {
		return ServerInfo{}, err
	}
	c.session = hdr.Get("Mcp-Session-Id")
	c.version = info.ProtocolVersion
	info.HandshakeUS, info.Session = micros(r.latency()), c.session != ""
	if _, _, err := c.post("notifications/initialized", nil, true); err != nil {
		return info, err
	}
	return info, nil
}

// endSession sends DELETE for the legacy session, if there is one, and
// closes the idle connections.
func (c *httpClient) endSession() {
	if c.pool == nil {
		return
	}
	defer c.pool.closeIdle()
	if c.session == "" {
		return
	}
	var hb [256]byte
	h := appendHeaderLine(hb[:0], "Mcp-Session-Id", c.session)
	h = appendHeaderLine(h, "MCP-Protocol-Version", c.version)
	_, _, _ = c.pool.do(http.MethodDelete, h, nil)
}

// urlPattern finds the endpoint's URL in the server's stderr.
var urlPattern = regexp.MustCompile(`https?://[^\s"'<>]+`)

// httpServer is a server process started by mcpload that serves HTTP and
// prints its URL to stderr.
type httpServer struct {
	cmd    *exec.Cmd
	url    chan string // receives the first URL the server prints
	exited chan error  // receives the result of cmd.Wait
}

// startHTTPServer starts argv and waits up to timeout for it to print the
// URL it serves at on stderr. All of its stderr goes on to stderr.
func startHTTPServer(argv []string, stderr io.Writer, timeout time.Duration) (*httpServer, string, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	s := &httpServer{cmd: cmd, url: make(chan string, 1), exited: make(chan error, 1)}
	go func() {
		r := bufio.NewReader(pipe)
		found := false
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				_, _ = io.WriteString(stderr, line)
				if u := urlPattern.FindString(line); u != "" && !found {
					found = true
					s.url <- u
				}
			}
			if err != nil {
				break
			}
		}
		s.exited <- cmd.Wait() // only once stderr is read to its end
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case u := <-s.url:
		return s, u, nil
	case err := <-s.exited:
		s.exited <- err
		return nil, "", fmt.Errorf("the server exited before printing its URL (%v)", err)
	case <-t.C:
		_, _, _ = s.stop(time.Second)
		return nil, "", fmt.Errorf("the server printed no URL on stderr within %v", timeout)
	}
}

// stop sends SIGTERM and waits up to grace for the server to exit, killing
// it after that (see client.closeAndWait).
func (s *httpServer) stop(grace time.Duration) (time.Duration, bool, error) {
	start := time.Now()
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	return awaitExit(s.cmd.Process, s.exited, start, grace, "server stderr still open after kill")
}
