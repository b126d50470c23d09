package httpconn_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/internal/peer/httpconn"
	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/protocol"
)

// posted is what a fake server read of a POST.
type posted struct {
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id"`
}

// fake serves h on a loopback server, the POST's message decoded for it,
// and checks at the end that nothing was left running.
func fake(t *testing.T, h func(w http.ResponseWriter, r *http.Request, m posted)) string {
	t.Helper()
	before := leakcheck.Snapshot()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m posted
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			json.Unmarshal(body, &m)
		}
		h(w, r, m)
	}))
	t.Cleanup(func() {
		ts.Close()
		leakcheck.Check(t, before)
	})
	return ts.URL + "/mcp"
}

// reply writes status, content type and body.
func reply(w http.ResponseWriter, status int, ct, body string) {
	if ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// discovered is a DiscoverResult response to id.
func discovered(id json.RawMessage) string {
	return `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],` +
		`"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"fake","version":"1"}}}}`
}

// initialized is an InitializeResult response to id.
func initialized(id json.RawMessage) string {
	return `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}}`
}

// A web server that is not an MCP endpoint: server/discover is refused
// (quietly: the client falls back to initialize, as for a legacy server),
// and initialize fails with the status, the content type and the page.
func TestNotMCP(t *testing.T) {
	var methods []string
	u := fake(t, func(w http.ResponseWriter, r *http.Request, m posted) {
		methods = append(methods, m.Method)
		reply(w, http.StatusNotFound, "text/html; charset=utf-8", "<html>\n  <body>Not Found</body></html>")
	})
	_, _, err := dial(t, u, reviewer(client.Auto), httpconn.Options{})
	msg, ok := httpconn.Failure(err)
	if !ok || !strings.Contains(msg, "404 Not Found") || !strings.Contains(msg, `"<html> <body>Not Found</body></html>"`) || !strings.Contains(msg, "text/html") {
		t.Fatalf("error %v; failure %q", err, msg)
	}
	if strings.Join(methods, ",") != "server/discover,initialize" {
		t.Errorf("methods %v", methods)
	}
}

// Answers that hold no response fail the handshake with what they were.
func TestWrongAnswers(t *testing.T) {
	sse := "text/event-stream"
	for _, c := range []struct {
		name   string
		answer func(w http.ResponseWriter, m posted)
		want   string
	}{
		{"text", func(w http.ResponseWriter, _ posted) { reply(w, 200, "text/plain", "hello") }, `200 OK, text/plain: "hello"`},
		{"202", func(w http.ResponseWriter, _ posted) { reply(w, 202, "", "") }, "202 Accepted with no body"},
		{"empty json", func(w http.ResponseWriter, _ posted) { reply(w, 200, "application/json", " \n") }, "with an empty body"},
		{"other id", func(w http.ResponseWriter, _ posted) { reply(w, 200, "application/json", discovered([]byte("99"))) }, "held no response to id 1"},
		{"garbage json", func(w http.ResponseWriter, _ posted) { reply(w, 200, "application/json", "{oops") }, "parse error"},
		{"stream ends", func(w http.ResponseWriter, _ posted) {
			reply(w, 200, sse, `data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`+"\n\n")
		}, "ended before the response to id 1"},
		{"stream cut", func(w http.ResponseWriter, m posted) { reply(w, 200, sse, "data: "+discovered(m.ID)) }, "in the middle of an event"},
		{"large json", func(w http.ResponseWriter, m posted) {
			reply(w, 200, "application/json", strings.Repeat(" ", 2048)+discovered(m.ID))
		}, "larger than 1024 bytes"},
		{"large event", func(w http.ResponseWriter, m posted) { reply(w, 200, sse, "data: "+strings.Repeat(" ", 2048)+"\n\n") }, "larger than the limit"},
		{"redirect", func(w http.ResponseWriter, _ posted) {
			w.Header().Set("Location", "/elsewhere")
			reply(w, http.StatusFound, "", "")
		}, `HTTP 302 Found to "/elsewhere"`},
		{"500", func(w http.ResponseWriter, _ posted) { reply(w, 500, "text/plain", "boom\n") }, `HTTP 500 Internal Server Error, text/plain: "boom"`},
		{"401", func(w http.ResponseWriter, _ posted) {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="x"`)
			reply(w, 401, "", "")
		}, `HTTP 401 Unauthorized (WWW-Authenticate: "Bearer resource_metadata=\"x\"") with no body`},
		{"idless error", func(w http.ResponseWriter, _ posted) {
			reply(w, 400, "application/json", `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: no session"}}`)
		}, "error -32000: HTTP 400 Bad Request: Bad Request: no session"},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := fake(t, func(w http.ResponseWriter, r *http.Request, m posted) { c.answer(w, m) })
			_, conn, err := dial(t, u, reviewer(protocol.Modern), httpconn.Options{MaxMessageBytes: 1024})
			if msg, _ := httpconn.Failure(err); err == nil || !strings.Contains(err.Error()+msg+conn.LastFailure(), c.want) {
				t.Fatalf("error %v, last failure %q, want it to say %q", err, conn.LastFailure(), c.want)
			}
		})
	}
}

// What a stream carries besides the response: a line that is not JSON is
// the session's problem, an event of another type the Conn's; the
// response still arrives.
func TestGarbageOnStream(t *testing.T) {
	u := fake(t, func(w http.ResponseWriter, r *http.Request, m posted) {
		reply(w, 200, "text/event-stream", ": hello\n\ndata: not json\n\nevent: ping\ndata: {}\n\nid: 1\ndata:\n\nevent: message\ndata: "+discovered(m.ID)+"\n\n")
	})
	sess, conn, err := dial(t, u, reviewer(protocol.Modern), httpconn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p := sess.Problems(); len(p) != 1 || !strings.Contains(p[0].Error(), "invalid message") {
		t.Errorf("session problems %v", p)
	}
	if p := conn.Problems(); len(p) != 1 || !strings.Contains(p[0], `type "ping"`) {
		t.Errorf("conn problems %v", p)
	}
}

// legacyServer is a legacy-only Streamable HTTP server: discover refused
// as refuse says, a session, notifications answered with accepted, GET
// with get, DELETE noted.
func legacyServer(t *testing.T, refuse func(w http.ResponseWriter), accepted, get int, deleted *bool) string {
	return fake(t, func(w http.ResponseWriter, r *http.Request, m posted) {
		switch {
		case r.Method == http.MethodDelete:
			*deleted = r.Header.Get("Mcp-Session-Id") == "s1"
			w.WriteHeader(http.StatusNoContent)
		case r.Method == http.MethodGet:
			w.WriteHeader(get)
		case m.Method == protocol.MethodDiscover:
			refuse(w)
		case m.Method == protocol.MethodInitialize:
			w.Header().Set("Mcp-Session-Id", "s1")
			reply(w, 200, "application/json", initialized(m.ID))
		case r.Header.Get("Mcp-Session-Id") != "s1":
			reply(w, 400, "text/plain", "no session")
		case m.ID == nil:
			w.WriteHeader(accepted)
		default:
			reply(w, 200, "application/json", `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{"tools":[]}}`)
		}
	})
}

// A legacy-only server refuses server/discover at the HTTP level; the
// client falls back to initialize without a finding, and Close ends the
// session with DELETE.
func TestLegacyOnly(t *testing.T) {
	for _, c := range []struct {
		name   string
		refuse func(w http.ResponseWriter)
	}{
		{"400 id-less", func(w http.ResponseWriter) {
			reply(w, 400, "application/json", `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}`)
		}},
		{"404 text", func(w http.ResponseWriter) { reply(w, 404, "text/plain", "404 page not found") }},
		{"405", func(w http.ResponseWriter) { reply(w, 405, "", "") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var deleted bool
			u := legacyServer(t, c.refuse, http.StatusAccepted, http.StatusMethodNotAllowed, &deleted)
			sess, conn, err := dial(t, u, reviewer(client.Auto), httpconn.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := sess.ListPages(bounded(t), protocol.MethodListTools); err != nil {
				t.Fatal(err)
			}
			d := sess.Detection()
			if sess.Era() != protocol.Legacy || d.Discover != client.Refused || !strings.Contains(d.DiscoverError.Message, "HTTP 40") {
				t.Errorf("era %v, detection %v", sess.Era(), d)
			}
			if p := append(sess.Problems(), errs(conn.Problems())...); len(p) > 0 {
				t.Errorf("problems %v", p)
			}
			sess.Close()
			if !deleted {
				t.Error("no DELETE with the session id")
			}
		})
	}
}

// A notification answered otherwise than 202 and a GET refused otherwise
// than 405 are the Conn's problems.
func TestHTTPProblems(t *testing.T) {
	var deleted bool
	u := legacyServer(t, func(w http.ResponseWriter) { reply(w, 404, "", "") }, http.StatusOK, http.StatusBadRequest, &deleted)
	sess, conn, err := dial(t, u, reviewer(client.Auto), httpconn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(conn.Problems()) < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	sess.Close()
	p := conn.Problems()
	if len(p) != 2 || !strings.Contains(p[0], "notifications/initialized was answered 200 OK") || !strings.Contains(p[1], "GET") || !strings.Contains(p[1], "400 Bad Request") {
		t.Errorf("problems %q", p)
	}
}

// Nothing listening: the handshake fails at once with the dial error.
func TestUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	before := leakcheck.Snapshot()
	start := time.Now()
	_, _, err = dial(t, "http://"+addr+"/mcp", reviewer(client.Auto), httpconn.Options{})
	var ue *url.Error
	if !errors.As(err, &ue) || time.Since(start) > 2*time.Second {
		t.Fatalf("error %v after %v", err, time.Since(start))
	}
	leakcheck.Check(t, before)
}

// A server that never answers holds nothing once the caller gives up.
func TestHang(t *testing.T) {
	u := fake(t, func(w http.ResponseWriter, r *http.Request, _ posted) { <-r.Context().Done() })
	conn, err := httpconn.New(u, httpconn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	opts := reviewer(client.Auto)
	opts.DiscoverTimeout = 100 * time.Millisecond
	start := time.Now()
	if _, err := client.Connect(ctx, conn, opts); err == nil || time.Since(start) > 2*time.Second {
		t.Fatalf("connect: %v after %v", err, time.Since(start))
	}
}

// A stream that breaks off (the server's connection dropped mid-answer)
// ends the connection, as a stdio server's exit does.
func TestBrokenStream(t *testing.T) {
	u := fake(t, func(w http.ResponseWriter, r *http.Request, m posted) {
		if m.Method == protocol.MethodDiscover {
			reply(w, 200, "application/json", discovered(m.ID))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	})
	sess, _, err := dial(t, u, reviewer(protocol.Modern), httpconn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = sess.ListPages(bounded(t), protocol.MethodListTools)
	if !isDisconnected(err) {
		t.Fatalf("list: %v", err)
	}
	if _, _, err := sess.Call(bounded(t), protocol.MethodListTools, nil); !isDisconnected(err) {
		t.Fatalf("a call after: %v", err)
	}
}

// New refuses what is not an http or https URL.
func TestNewURL(t *testing.T) {
	for _, u := range []string{"ftp://x/mcp", "localhost:8080", "http://", "http://a b/"} {
		if _, err := httpconn.New(u, httpconn.Options{}); err == nil {
			t.Errorf("%q accepted", u)
		}
	}
}

// A 401 is remembered with its challenge, in either era, and only a 401:
// the Options.Header is what the server sees.
func TestUnauthorized(t *testing.T) {
	const challenge = `Bearer resource_metadata="https://as.example/.well-known/oauth-protected-resource/mcp"`
	u := fake(t, func(w http.ResponseWriter, r *http.Request, m posted) {
		switch r.Header.Get("Authorization") {
		case "Bearer good":
			if m.Method == protocol.MethodDiscover {
				reply(w, http.StatusOK, "application/json", discovered(m.ID))
				return
			}
			w.WriteHeader(http.StatusAccepted)
		default:
			w.Header().Set("WWW-Authenticate", challenge)
			reply(w, http.StatusUnauthorized, "", "")
		}
	})
	for _, era := range []protocol.Era{client.Auto, protocol.Modern} {
		_, conn, err := dial(t, u, reviewer(era), httpconn.Options{Header: http.Header{"Authorization": {"Bearer bad"}}})
		if got, ok := conn.Unauthorized(); err == nil || !ok || got != challenge {
			t.Errorf("era %v: Unauthorized() = %q, %v after %v; want the challenge", era, got, ok, err)
		}
	}
	_, conn, err := dial(t, u, reviewer(protocol.Modern), httpconn.Options{Header: http.Header{"Authorization": {"Bearer good"}}})
	if got, ok := conn.Unauthorized(); err != nil || ok || got != "" {
		t.Errorf("accepted: Unauthorized() = %q, %v after %v; want none", got, ok, err)
	}
}
