package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/client/signin"
	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// A gateway signs in to a protected HTTP upstream (everything -auth dev)
// with Upstream.SignIn and serves its tools; without a sign-in it does
// not start, and says why.
func TestGatewaySignsInToAnUpstream(t *testing.T) {
	cmd, endpoint := startAuthDev(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	if _, err := gateway.New(ctx, &gateway.Config{Upstreams: []gateway.Upstream{{Name: "guarded", URL: endpoint}}}, nil); err == nil ||
		!strings.Contains(err.Error(), "guarded") {
		t.Errorf("a gateway in front of a protected upstream without a sign-in: %v, want an error naming it", err)
	}

	flow, err := signin.New(signin.Config{RedirectURL: "http://127.0.0.1:9/callback", Authorize: signin.FollowRedirect(nil)})
	if err != nil {
		t.Fatal(err)
	}
	g, err := gateway.New(ctx, &gateway.Config{Upstreams: []gateway.Upstream{{Name: "guarded", URL: endpoint, SignIn: flow}}}, nil)
	if err != nil {
		t.Fatalf("gateway.New with a sign-in: %v", err)
	}
	callGuarded(t, ctx, g, protocol.Modern)
	cmd.Process.Signal(syscall.SIGTERM)
	awaitCleanExit(t, cmd)
}

// A gateway whose configuration file gives client credentials signs in to
// a protected upstream as itself (the client credentials grant, the
// credentials from the environment); a wrong secret stops the start with
// an error naming the upstream and not the secret.
func TestGatewayConfigClientCredentials(t *testing.T) {
	cmd, endpoint := startAuthDev(t)
	id, secret := registerConfidential(t, endpoint)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const yaml = `
upstreams:
  - name: guarded
    url: %s
    clientCredentials:
      clientId: ${GW_CLIENT_ID}
      clientSecret: ${GW_CLIENT_SECRET}
`
	t.Setenv("GW_CLIENT_ID", id)
	t.Setenv("GW_CLIENT_SECRET", "not-"+secret)
	cfg, err := gateway.ParseConfig(fmt.Appendf(nil, yaml, endpoint))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gateway.New(ctx, cfg, nil); err == nil || !strings.Contains(err.Error(), `"guarded"`) || strings.Contains(err.Error(), secret) {
		t.Errorf("a wrong secret: %v, want an error naming the upstream, without the secret", err)
	}

	t.Setenv("GW_CLIENT_SECRET", secret)
	if cfg, err = gateway.ParseConfig(fmt.Appendf(nil, yaml, endpoint)); err != nil {
		t.Fatal(err)
	}
	g, err := gateway.New(ctx, cfg, nil)
	if err != nil {
		t.Fatalf("gateway.New with client credentials: %v", err)
	}
	callGuarded(t, ctx, g, protocol.Legacy)
	cmd.Process.Signal(syscall.SIGTERM)
	awaitCleanExit(t, cmd)
}

// registerConfidential registers a confidential client for the client
// credentials grant with the authorization server endpoint names, and
// returns its id and secret.
func registerConfidential(t *testing.T, endpoint string) (id, secret string) {
	t.Helper()
	resp, _ := post(t, endpoint, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, map[string]string{"Accept": "application/json, text/event-stream"})
	m := regexp.MustCompile(`resource_metadata="([^"]+)"`).FindStringSubmatch(resp.Header.Get("WWW-Authenticate"))
	if m == nil {
		t.Fatalf("no resource_metadata in %q", resp.Header.Get("WWW-Authenticate"))
	}
	c := &http.Client{Timeout: 10 * time.Second}
	var prm struct {
		AuthorizationServers []string `json:"authorization_servers"`
	}
	getJSON(t, c, m[1], &prm)
	var as struct {
		RegistrationEndpoint string `json:"registration_endpoint"`
	}
	getJSON(t, c, prm.AuthorizationServers[0]+"/.well-known/oauth-authorization-server", &as)
	resp, err := c.Post(as.RegistrationEndpoint, "application/json", strings.NewReader(
		`{"grant_types":["client_credentials"],"token_endpoint_auth_method":"client_secret_basic","client_name":"gateway-test"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var reg struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	json.NewDecoder(resp.Body).Decode(&reg)
	if resp.StatusCode != http.StatusCreated || reg.ClientID == "" || reg.ClientSecret == "" {
		t.Fatalf("register: %d %+v", resp.StatusCode, reg)
	}
	return reg.ClientID, reg.ClientSecret
}

// callGuarded calls the protected upstream's test_simple_text through g,
// as a client of era, and closes g.
func callGuarded(t *testing.T, ctx context.Context, g *gateway.Gateway, era protocol.Era) {
	t.Helper()
	defer g.Close()
	a, b := transport.Pipe(transport.Options{})
	go g.Server().Serve(ctx, a)
	c, err := client.Connect(ctx, client.Conn{Conn: b}, &client.Options{Era: era})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.CallTool(ctx, "guarded_test_simple_text", map[string]any{})
	if err != nil || (res.IsError != nil && *res.IsError) || len(res.Content) != 1 {
		t.Fatalf("a protected upstream's tool through the gateway: %+v, %v", res, err)
	}
}
