package httpconn_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/peer/httpconn"
	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// annotatedTools is a tools/list page with one tool whose x-mcp-header
// annotation is valid and two whose annotations break the rules (on an
// object, and empty).
const annotatedTools = `{"resultType":"complete","ttlMs":0,"cacheScope":"private","tools":[` +
	`{"name":"valid_tool","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}},` +
	`{"name":"object_header","inputSchema":{"type":"object","properties":{"data":{"type":"object","x-mcp-header":"Data"}}}},` +
	`{"name":"empty_header","inputSchema":{"type":"object","properties":{"value":{"type":"string","x-mcp-header":""}}}}]}`

// With ExcludeInvalidTools, a tools/call of a tool whose annotations are
// invalid is answered -32602 by the Conn and never POSTed; the valid tool
// is called with its Mcp-Param header. Without it, every call is POSTed
// (the invalid tools' without Mcp-Param headers), as mcpwire check wants.
func TestExcludeInvalidTools(t *testing.T) {
	for _, exclude := range []bool{true, false} {
		t.Run(map[bool]string{true: "exclude", false: "keep"}[exclude], func(t *testing.T) {
			before := leakcheck.Snapshot()
			var mu sync.Mutex
			var called []string
			var region string
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodPost {
					w.WriteHeader(http.StatusMethodNotAllowed)
					return
				}
				body, _ := io.ReadAll(r.Body)
				var m struct {
					Method string          `json:"method"`
					ID     json.RawMessage `json:"id"`
					Params struct {
						Name string `json:"name"`
					} `json:"params"`
				}
				json.Unmarshal(body, &m)
				switch m.Method {
				case protocol.MethodDiscover:
					reply(w, 200, "application/json", discovered(m.ID))
				case protocol.MethodListTools:
					reply(w, 200, "application/json", `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":`+annotatedTools+`}`)
				case protocol.MethodCallTool:
					mu.Lock()
					called = append(called, m.Params.Name)
					if m.Params.Name == "valid_tool" {
						region = r.Header.Get("Mcp-Param-Region")
					}
					mu.Unlock()
					reply(w, 200, "application/json", `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{"resultType":"complete","content":[]}}`)
				default:
					reply(w, 200, "application/json", `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"error":{"code":-32601,"message":"no"}}`)
				}
			}))
			t.Cleanup(func() {
				ts.Close()
				leakcheck.Check(t, before)
			})
			sess, _, err := dial(t, ts.URL+"/mcp", reviewer(protocol.Modern), httpconn.Options{ExcludeInvalidTools: exclude})
			if err != nil {
				t.Fatal(err)
			}
			ctx := bounded(t)
			if _, err := sess.ListPages(ctx, protocol.MethodListTools); err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"valid_tool", "object_header", "empty_header"} {
				_, rpcErr, err := sess.Call(ctx, protocol.MethodCallTool, map[string]any{"name": name, "arguments": map[string]any{"region": "us-west1"}})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				refused := rpcErr != nil && rpcErr.Code == jsonrpc.CodeInvalidParams
				if want := exclude && name != "valid_tool"; refused != want {
					t.Errorf("%s: error %v, want refused %v", name, rpcErr, want)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			want := []string{"valid_tool"}
			if !exclude {
				want = []string{"valid_tool", "object_header", "empty_header"}
			}
			if !slices.Equal(called, want) {
				t.Errorf("the server got calls of %v, want %v", called, want)
			}
			if region != "us-west1" {
				t.Errorf("valid_tool's Mcp-Param-Region = %q, want us-west1", region)
			}
		})
	}
}

// A legacy session's Connect returns once its GET stream is answered, not
// before: a server may send its requests there at once (the TypeScript
// SDK drops what it cannot send). A GET answered late holds Connect up;
// one never answered holds it at most streamWait.
func TestConnectWaitsForTheStream(t *testing.T) {
	for _, c := range []struct {
		name  string
		delay time.Duration // before the GET's headers; 0: never
	}{{"late", 150 * time.Millisecond}, {"never", 0}} {
		t.Run(c.name, func(t *testing.T) {
			var opened atomic.Bool
			u := fake(t, func(w http.ResponseWriter, r *http.Request, m posted) {
				switch {
				case r.Method == http.MethodGet && c.delay == 0:
					<-r.Context().Done()
				case r.Method == http.MethodGet:
					time.Sleep(c.delay)
					opened.Store(true)
					w.Header().Set("Content-Type", "text/event-stream")
					w.WriteHeader(http.StatusOK)
					w.(http.Flusher).Flush()
					<-r.Context().Done()
				case m.Method == protocol.MethodInitialize:
					w.Header().Set("Mcp-Session-Id", "s1")
					reply(w, 200, "application/json", initialized(m.ID))
				case m.ID == nil:
					reply(w, 202, "", "")
				default:
					reply(w, 400, "application/json", `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"no session"}}`)
				}
			})
			start := time.Now()
			if _, _, err := dial(t, u, reviewer(protocol.Legacy), httpconn.Options{}); err != nil {
				t.Fatal(err)
			}
			took := time.Since(start)
			if c.delay > 0 && !opened.Load() {
				t.Errorf("Connect returned after %v, before the GET stream was answered", took)
			}
			if c.delay == 0 && (took < 1500*time.Millisecond || took > 5*time.Second) {
				t.Errorf("Connect took %v with a GET never answered; want about 2s", took)
			}
		})
	}
}
