package client_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/client/signin"
	"github.com/mcpwire/mcpwire/mcphttp"
)

// refusingSignIn is an MCP endpoint (testServer over HTTP) that answers
// 401 to the requests guarded picks, and whose protected resource
// metadata names another resource, so that every sign-in fails with
// signin.ErrResourceMismatch.
func refusingSignIn(t *testing.T, guarded func(body []byte) bool) string {
	t.Helper()
	h := mcphttp.NewHandler(testServer(), nil)
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/oauth-protected-resource/mcp" {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"resource":"https://other.example/mcp","authorization_servers":[%q]}`, srv.URL)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if guarded(body) {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
			http.Error(w, "sign in", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// refusedFlow is a sign-in that follows the redirect itself.
func refusedFlow(t *testing.T) *signin.Flow {
	t.Helper()
	f, err := signin.New(signin.Config{RedirectURL: "http://127.0.0.1:9/callback", Authorize: signin.FollowRedirect(nil)})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// A sign-in that fails ends Connect with the sign-in's error at once, in
// every era: whether the request it refused had returned from its write
// (a legacy one, or the probe before reading began) or was answered on
// the caller's goroutine. It used to wait for its context.
func TestHTTPSignInRefusedAtConnect(t *testing.T) {
	endpoint := refusingSignIn(t, func([]byte) bool { return true })
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			for range 5 { // the order of the probe and reading varies
				ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
				start := time.Now()
				_, err := client.Connect(ctx, client.HTTP{URL: endpoint, SignIn: refusedFlow(t)}, &client.Options{Era: e.era, Logger: quiet})
				cancel()
				if !errors.Is(err, signin.ErrResourceMismatch) {
					t.Fatalf("Connect after %v: %v; want the sign-in's ErrResourceMismatch", time.Since(start), err)
				}
			}
		})
	}
}

// A call whose sign-in fails fails with the sign-in's error, and the
// connection lives on: the next call that needs no token is answered.
func TestHTTPSignInRefusedCall(t *testing.T) {
	endpoint := refusingSignIn(t, func(body []byte) bool { return bytes.Contains(body, []byte(`"tools/call"`)) })
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			ctx := bounded(t)
			c, err := client.Connect(ctx, client.HTTP{URL: endpoint, SignIn: refusedFlow(t)}, &client.Options{Era: e.era, Logger: quiet})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			defer cancel()
			if _, err := c.CallTool(cctx, "add", Pair{1, 2}); !errors.Is(err, signin.ErrResourceMismatch) {
				t.Fatalf("CallTool: %v; want the sign-in's ErrResourceMismatch", err)
			}
			if err := c.Ping(ctx); err != nil {
				t.Fatalf("Ping after the refused call: %v", err)
			}
		})
	}
}
