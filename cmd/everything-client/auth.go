package main

import (
	"context"
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/client/signin"
	"github.com/mcpwire/mcpwire/dpop"
	"github.com/mcpwire/mcpwire/protocol"
)

// authContext is what the auth/* scenarios put in MCP_CONFORMANCE_CONTEXT.
type authContext struct {
	ClientID         string `json:"client_id"`
	ClientSecret     string `json:"client_secret"`
	Issuer           string `json:"issuer"`
	PrivateKeyPEM    string `json:"private_key_pem"`
	IDPClientID      string `json:"idp_client_id"`
	IDPIDToken       string `json:"idp_id_token"`
	IDPTokenEndpoint string `json:"idp_token_endpoint"`
	ValidJWT         string `json:"valid_jwt"`
}

// redirectURL is where the suites' authorization servers redirect: no
// one listens there, the redirect is read without being followed.
const redirectURL = "http://localhost:3000/callback"

// cimdURL is the Client ID Metadata Document URL auth/basic-cimd expects.
const cimdURL = "https://conformance-test.local/client-metadata.json"

// authScenarios are the auth/* scenarios of both suites: each signs in
// with package signin as the scenario asks, lists the tools and calls
// test-tool. The scenarios that test a refusal end in an error, which the
// suite allows.
var authScenarios = map[string]func(authContext) (signin.Config, error){
	"auth/basic-cimd": func(authContext) (signin.Config, error) {
		return signin.Config{ClientMetadataURL: cimdURL}, nil
	},
	"auth/pre-registration": func(a authContext) (signin.Config, error) {
		return signin.Config{ClientID: a.ClientID, ClientSecret: a.ClientSecret, Issuer: a.Issuer}, nil
	},
	"auth/client-credentials-basic": func(a authContext) (signin.Config, error) {
		return signin.Config{ClientID: a.ClientID, ClientSecret: a.ClientSecret, Grant: signin.ClientCredentials{}}, nil
	},
	"auth/client-credentials-jwt": func(a authContext) (signin.Config, error) {
		key, err := parseKey(a.PrivateKeyPEM)
		return signin.Config{ClientID: a.ClientID, PrivateKey: key, Grant: signin.ClientCredentials{}}, err
	},
	"auth/wif-jwt-bearer": func(a authContext) (signin.Config, error) {
		return signin.Config{ClientID: a.ClientID, Grant: signin.JWTBearer{
			Assertion: func(context.Context) (string, error) { return a.ValidJWT, nil },
		}}, nil
	},
	"auth/enterprise-managed-authorization": enterprise,
	"auth/cross-app-access-complete-flow":   enterprise,
	"auth/dpop":                             withDPoP,
	"auth/dpop-nonce":                       withDPoP,
}

// plainAuth are the auth/* scenarios that need nothing but the
// authorization code flow with dynamic registration.
var plainAuth = []string{
	"auth/basic-dcr", "auth/metadata-default", "auth/metadata-var1", "auth/metadata-var2", "auth/metadata-var3",
	"auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback",
	"auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported", "auth/scope-omitted-when-undefined",
	"auth/scope-step-up", "auth/scope-retry-limit",
	"auth/token-endpoint-auth-basic", "auth/token-endpoint-auth-post", "auth/token-endpoint-auth-none",
	"auth/resource-mismatch", "auth/offline-access-scope", "auth/offline-access-not-supported",
	"auth/authorization-server-migration",
	"auth/iss-supported", "auth/iss-not-advertised", "auth/iss-supported-missing", "auth/iss-wrong-issuer",
	"auth/iss-unexpected", "auth/iss-normalized", "auth/metadata-issuer-mismatch",
}

func init() {
	for _, name := range plainAuth {
		authScenarios[name] = func(authContext) (signin.Config, error) { return signin.Config{}, nil }
	}
	for name, cfg := range authScenarios {
		scenarios[name] = authScenario(cfg)
	}
}

// enterprise signs in through the identity provider of the context.
func enterprise(a authContext) (signin.Config, error) {
	return signin.Config{ClientID: a.ClientID, ClientSecret: a.ClientSecret, Grant: signin.EnterpriseManaged{
		TokenEndpoint: a.IDPTokenEndpoint, ClientID: a.IDPClientID,
		IDToken: func(context.Context) (string, error) { return a.IDPIDToken, nil },
	}}, nil
}

// withDPoP signs in with a fresh DPoP key.
func withDPoP(authContext) (signin.Config, error) {
	k, err := dpop.GenerateKey()
	return signin.Config{DPoP: k}, err
}

// authScenario runs an auth/* scenario: connect with the sign-in cfg
// makes, list the tools, call test-tool.
func authScenario(cfg func(authContext) (signin.Config, error)) scenario {
	return func(ctx context.Context, url string, sc scenarioContext) error {
		c, err := cfg(sc.authContext)
		if err != nil {
			return err
		}
		if c.RedirectURL == "" {
			c.RedirectURL, c.Authorize = redirectURL, signin.FollowRedirect(nil)
		}
		c.ClientName = "mcpwire-everything-client"
		flow, err := signin.New(c)
		if err != nil {
			return err
		}
		cl, err := client.Connect(ctx, client.HTTP{URL: url, SignIn: flow}, &client.Options{
			ClientInfo: protocol.Implementation{Name: "mcpwire-everything-client"},
		})
		if err != nil {
			return fmt.Errorf("connect: %w", err)
		}
		s := &session{Client: cl}
		tools, err := s.tools(ctx)
		if err == nil {
			for _, t := range tools {
				if t.Name == "test-tool" {
					err = s.callTool(ctx, "test-tool", nil)
				}
			}
		}
		return errors.Join(err, cl.Close())
	}
}

// parseKey reads a PKCS #8 private key in PEM.
func parseKey(p string) (crypto.Signer, error) {
	b, _ := pem.Decode([]byte(p))
	if b == nil {
		return nil, errors.New("private_key_pem: no PEM block")
	}
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		return nil, fmt.Errorf("private_key_pem: %w", err)
	}
	s, ok := k.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("private_key_pem: a %T cannot sign", k)
	}
	return s, nil
}
