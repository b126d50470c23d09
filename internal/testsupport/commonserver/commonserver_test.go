package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/protocol"
)

// TestImports holds issue 26's count: a common server imports at most
// four mcpwire packages, mcp, tool and ask over stdio, and mcphttp over
// HTTP besides. It reads the package's own imports with go list, once
// built for stdio only (the stdioonly tag) and once as it is.
func TestImports(t *testing.T) {
	const mod = "github.com/mcpwire/mcpwire/"
	for _, c := range []struct {
		name string
		tags string
		want []string
	}{
		{"stdio", "stdioonly", []string{"ask", "mcp", "tool"}},
		{"http", "", []string{"ask", "mcp", "mcphttp", "tool"}},
	} {
		out, err := exec.Command("go", "list", "-tags", c.tags, "-f", `{{join .Imports " "}}`, ".").Output()
		if err != nil {
			t.Fatalf("%s: go list: %v", c.name, err)
		}
		var got []string
		for _, imp := range strings.Fields(string(out)) {
			if strings.HasPrefix(imp, mod) {
				got = append(got, strings.TrimPrefix(imp, mod))
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) || len(got) > 4 {
			t.Errorf("the %s server imports the mcpwire packages %v, want %v (at most four)", c.name, got, c.want)
		}
	}
}

// TestServer drives every feature the server registers, in memory.
func TestServer(t *testing.T) {
	ctx := t.Context()
	c := mcptest.NewClient(t, newServer(), &client.Options{
		Elicit: func(context.Context, *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
			return &protocol.ElicitResult{Action: protocol.ElicitAccept, Content: protocol.Object{"approve": []byte("true")}}, nil
		},
	})
	out, err := client.CallToolAs[release](ctx, c, "release", map[string]any{"service": "billing", "steps": 3})
	if err != nil || !out.Released {
		t.Fatalf("release answered %+v (%v), want released", out, err)
	}
	for uri, want := range map[string]string{"config://services": "checkout", "service://catalog/status": "catalog is up"} {
		r, err := c.ReadResource(ctx, uri)
		if err != nil || len(r.Contents) != 1 || r.Contents[0].Text == nil || !strings.Contains(r.Contents[0].Text.Text, want) {
			t.Errorf("read %s: %v %+v, want %q", uri, err, r, want)
		}
	}
	if _, err := c.ReadResource(ctx, "service://nope/status"); err == nil {
		t.Error("reading an unknown service succeeded")
	}
	p, err := c.GetPrompt(ctx, "postmortem", map[string]string{"service": "checkout"})
	if err != nil || len(p.Messages) != 1 {
		t.Errorf("postmortem: %v %+v", err, p)
	}
	comp, err := c.Complete(ctx, protocol.CompletionReference{Prompt: &protocol.PromptReference{Name: "postmortem"}}, "service", "ch")
	if err != nil || !slices.Contains(comp.Values, "checkout") || slices.Contains(comp.Values, "billing") {
		t.Errorf("completion: %v %+v", err, comp)
	}
}

// TestHTTP serves the server over Streamable HTTP and initializes a
// session.
func TestHTTP(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- serveHTTP(ctx, ln, newServer()) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serveHTTP: %v", err)
		}
	}()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+ln.Addr().String()+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"commonserver"`) {
		t.Errorf("initialize over HTTP: %s\n%s", resp.Status, body)
	}
}
