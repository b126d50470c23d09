package client_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// rawServer is a legacy server scripted line by line: for each request
// the client sends, answer gets its method and id and returns the lines
// to write, as they are ("" closes the connection).
type rawServer struct {
	toClient *io.PipeWriter
	done     chan struct{}
}

// serveRaw connects a client to a raw server. The handshake (initialize,
// notifications/initialized) is answered by the server itself.
func serveRaw(t *testing.T, answer func(method, id string) []string, max int) (*client.Client, error) {
	t.Helper()
	cr, sw := io.Pipe() // server → client
	sr, cw := io.Pipe() // client → server
	conn := transport.NewStream(cr, cw, transport.Options{MaxMessageBytes: max})
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer sw.Close()
		sc := bufio.NewScanner(sr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m struct {
				Method string          `json:"method"`
				ID     json.RawMessage `json:"id"`
			}
			if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
				continue
			}
			var out []string
			if m.Method == protocol.MethodInitialize {
				out = []string{`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + legacyInit + `}`}
			} else {
				out = answer(m.Method, string(m.ID))
			}
			for _, l := range out {
				if l == "" {
					sr.Close()
					return
				}
				if _, err := io.WriteString(sw, l+"\n"); err != nil {
					return
				}
			}
		}
	}()
	t.Cleanup(func() { conn.Close(); sr.Close(); <-done })
	return client.Connect(bounded(t), client.Conn{Conn: conn}, &client.Options{Era: protocol.Legacy, Logger: quiet})
}

func result(id, r string) string { return `{"jsonrpc":"2.0","id":` + id + `,"result":` + r + `}` }

const oneTool = `{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`
const okResult = `{"content":[{"type":"text","text":"ok"}]}`

func TestWhatServersGetWrong(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(method, id string) []string
		want   string // in the call's error; "" : the call succeeds
		wire   string // in a wire finding
	}{
		{"garbage first", func(m, id string) []string {
			return []string{"not json", `{"jsonrpc":"2.0"}`, "\x00\x01", answerOf(m, id)}
		}, "", "invalid message"},
		{"unknown id", func(m, id string) []string {
			return []string{result("999999", okResult), answerOf(m, id)}
		}, "", "999999"},
		{"duplicate response", func(m, id string) []string {
			return []string{answerOf(m, id), answerOf(m, id)}
		}, "", ""},
		{"dies mid-call", func(m, id string) []string {
			if m == protocol.MethodCallTool {
				return []string{""}
			}
			return []string{answerOf(m, id)}
		}, "ended the connection", ""},
		{"result of the wrong shape", func(m, id string) []string {
			if m == protocol.MethodCallTool {
				return []string{result(id, `[1,2]`)}
			}
			return []string{answerOf(m, id)}
		}, "result-shape", ""},
		{"oversized line", func(m, id string) []string {
			if m == protocol.MethodCallTool {
				return []string{result(id, `{"content":[{"type":"text","text":"`+strings.Repeat("x", 8<<10)+`"}]}`)}
			}
			return []string{answerOf(m, id)}
		}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := leakcheck.Snapshot()
			func() {
				c, err := serveRaw(t, tc.answer, 4<<10)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
				defer cancel()
				_, err = c.CallTool(ctx, "t", nil)
				switch {
				case tc.name == "oversized line":
					if err == nil {
						t.Fatal("an oversized line was read")
					}
				case tc.want == "" && err != nil:
					t.Fatalf("call: %v", err)
				case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
					t.Fatalf("call: %v, want %q", err, tc.want)
				}
				if tc.wire != "" {
					found := false
					for _, f := range c.Findings() {
						found = found || (f.Gate == "wire" && strings.Contains(f.Message, tc.wire))
					}
					if !found {
						t.Fatalf("no wire finding with %q in %+v", tc.wire, c.Findings())
					}
				}
			}()
			leakcheck.Check(t, before)
		})
	}
}

// answerOf answers tools/list with one tool and anything else with a
// text result.
func answerOf(method, id string) string {
	if method == protocol.MethodListTools {
		return result(id, oneTool)
	}
	return result(id, okResult)
}

// A server that never answers a call: the call ends with its context and
// the client goes on.
func TestNeverAnswers(t *testing.T) {
	c, err := serveRaw(t, func(m, id string) []string {
		if m == protocol.MethodCallTool {
			return nil
		}
		return []string{answerOf(m, id)}
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	if _, err := c.CallTool(ctx, "t", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("unanswered call: %v", err)
	}
	if err := c.Ping(bounded(t)); err != nil {
		t.Fatalf("ping after: %v", err)
	}
}

// A tool the server answers but never listed is called, and its result is
// checked as a tool's that declares no output schema.
func TestUnlistedTool(t *testing.T) {
	c, err := serveRaw(t, func(m, id string) []string {
		if m == protocol.MethodListTools {
			return []string{result(id, `{"tools":[]}`)}
		}
		return []string{answerOf(m, id)}
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if res, err := c.CallTool(bounded(t), "hidden", nil); err != nil || res.Content[0].Text.Text != "ok" {
		t.Fatalf("an unlisted tool: %+v, %v", res, err)
	}
}
