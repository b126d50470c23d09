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

// httpClient makes MCP requests to one Streamable HTTP endpoint. All its
// methods are safe for concurrent use: the concurrent phase shares one
// client, and so one http.Transport, among its connections.
type httpClient struct {
	url       string
	hc        *http.Client
	modern    bool
	version   string // the MCP-Protocol-Version header of every request after initialize
	session   string // the legacy session's Mcp-Session-Id, if the server sent one
	serverPID int
	nextID    atomic.Int64
	anom      anomalies
}

// newHTTPClient returns a client for url whose transport keeps up to conns
// connections alive, one per concurrent caller.
func newHTTPClient(url string, modern bool, conns int, timeout time.Duration) *httpClient {
	tr := &http.Transport{
		Proxy:               nil, // the endpoint is measured directly, whatever the environment says
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        conns,
		MaxIdleConnsPerHost: conns,
		MaxConnsPerHost:     conns,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}
	c := &httpClient{
		url:    url,
		hc:     &http.Client{Transport: tr, Timeout: timeout},
		modern: modern,
	}
	if modern {
		c.version = modernVersion
	}
	return c
}

// Header values shared by every request; the transport only reads them.
var (
	hdrJSON   = []string{"application/json"}
	hdrAccept = []string{"application/json, text/event-stream"}
	hdrCall   = []string{"tools/call"}
	hdrEcho   = []string{"echo"}
)

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
	var id int64
	if !notify {
		id = c.nextID.Add(1)
	}
	b := appendMessage(make([]byte, 0, len(params)+64), id, method, params)

	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(b))
	if err != nil {
		return reply{}, nil, err
	}
	h := make(http.Header, 6)
	h["Content-Type"] = hdrJSON
	h["Accept"] = hdrAccept
	if c.version != "" && method != "initialize" {
		h["Mcp-Protocol-Version"] = []string{c.version}
	}
	if c.modern {
		if method == "tools/call" {
			h["Mcp-Method"] = hdrCall
			h["Mcp-Name"] = hdrEcho // the only tool mcpload calls
		} else {
			h["Mcp-Method"] = []string{method}
		}
	} else if c.session != "" {
		h["Mcp-Session-Id"] = []string{c.session}
	}
	req.Header = h

	sent := time.Now()
	resp, err := c.hc.Do(req)
	if err != nil {
		err = classify(err)
		return reply{sent: sent, recv: time.Now(), err: err}, nil, err
	}
	body, err := readBody(resp)
	recv := time.Now()
	if err != nil {
		err = classify(err)
		return reply{sent: sent, recv: recv, err: err}, resp.Header, err
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
	defer c.hc.CloseIdleConnections()
	if c.session == "" {
		return
	}
	req, err := http.NewRequest(http.MethodDelete, c.url, nil)
	if err != nil {
		return
	}
	req.Header.Set("Mcp-Session-Id", c.session)
	req.Header.Set("Mcp-Protocol-Version", c.version)
	if resp, err := c.hc.Do(req); err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
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
