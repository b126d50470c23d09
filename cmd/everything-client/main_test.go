package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/protocol"
	mcptool "github.com/mcpwire/mcpwire/tool"
)

// The form's defaults are the answer; a field without one is left out.
func TestAcceptDefaults(t *testing.T) {
	var p protocol.ElicitRequestParams
	err := json.Unmarshal([]byte(`{"message":"m","requestedSchema":{"type":"object","properties":{`+
		`"name":{"type":"string","default":"John Doe"},"age":{"type":"integer","default":30},`+
		`"verified":{"type":"boolean","default":true},"note":{"type":"string"}}}}`), &p)
	if err != nil {
		t.Fatal(err)
	}
	r, err := acceptDefaults(context.Background(), &p)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(r)
	if want := `{"action":"accept","content":{"age":30,"name":"John Doe","verified":true}}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// An unknown scenario, or a context that is not JSON, is refused.
func TestRunRefuses(t *testing.T) {
	if err := run("http://127.0.0.1:1/mcp", "auth/no-such-scenario", ""); err == nil || !strings.Contains(err.Error(), "unknown scenario") {
		t.Errorf("unknown scenario: %v", err)
	}
	if err := run("http://127.0.0.1:1/mcp", "initialize", "{"); err == nil || !strings.Contains(err.Error(), "MCP_CONFORMANCE_CONTEXT") {
		t.Errorf("bad context: %v", err)
	}
}

// The scenarios do what they ask of a client against an mcpwire server over
// Streamable HTTP, in both eras' handshakes (Auto detects the modern one).
func TestScenarios(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := mcp.NewServer(mcp.Implementation{Name: "test", Version: "1"}, &mcp.Options{Logger: quiet})
	var mu sync.Mutex
	var calls []string
	type sum struct {
		A float64 `json:"a"`
		B float64 `json:"b"`
	}
	srv.MustAddTool(mcptool.New("add_numbers", "Adds.", func(_ context.Context, in sum) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, fmt.Sprintf("add_numbers:%v+%v", in.A, in.B))
		return fmt.Sprint(in.A + in.B), nil
	}))
	type echo struct {
		Region string `json:"region"`
	}
	srv.MustAddTool(mcptool.New("echo_region", "Echoes.", func(_ context.Context, in echo) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, "echo_region:"+in.Region)
		return in.Region, nil
	}))
	srv.MustAddPrompt(mcp.Prompt{Name: "greet", Get: func(context.Context, map[string]string) (*mcp.PromptResult, error) {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, "prompt:greet")
		return &mcp.PromptResult{Messages: []mcp.PromptMessage{mcp.UserMessage("hi")}}, nil
	}})
	srv.MustAddResource(mcp.Resource{URI: "test://doc", Name: "doc",
		Read: func(context.Context, string) ([]mcp.ResourceContents, error) {
			mu.Lock()
			defer mu.Unlock()
			calls = append(calls, "read:test://doc")
			return []mcp.ResourceContents{mcp.TextContents("test://doc", "text/plain", "d")}, nil
		}})
	h := mcphttp.NewHandler(srv, &mcphttp.Options{Logger: quiet})
	ts := httptest.NewServer(h)
	defer func() {
		h.Close()
		ts.Close()
	}()
	url := ts.URL + "/mcp"
	for _, name := range []string{"initialize", "tools_call", "http-invalid-tool-headers", "http-standard-headers"} {
		if err := run(url, name, ""); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	ctx := `{"name":"http-custom-headers","toolCalls":[{"name":"echo_region","arguments":{"region":"eu"}}]}`
	if err := run(url, "http-custom-headers", ctx); err != nil {
		t.Errorf("http-custom-headers: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	// tools_call adds 5 and 3; http-invalid-tool-headers calls every tool
	// with a region; http-standard-headers reads the first resource and
	// gets the first prompt; http-custom-headers makes the context's call.
	joined := strings.Join(calls, ",")
	for _, want := range []string{"add_numbers:5+3", "echo_region:us-west1", "read:test://doc", "prompt:greet", "echo_region:eu"} {
		if !strings.Contains(joined, want) {
			t.Errorf("calls %s, want %s among them", joined, want)
		}
	}
}
