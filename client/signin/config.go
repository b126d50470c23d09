package signin

import (
	"context"
	"crypto"
	"errors"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/mcpwire/mcpwire/dpop"
)

// Config says how a client signs in. The zero value signs in with the
// authorization code flow, registering itself dynamically, and needs only
// Authorize and RedirectURL.
type Config struct {
	// ClientID and ClientSecret are credentials registered with the
	// authorization server beforehand (Client Registration Approaches:
	// pre-registration comes first). ClientSecret is "" for a public
	// client. Without ClientID the client uses ClientMetadataURL, else
	// registers dynamically (RFC 7591).
	ClientID, ClientSecret string
	// Issuer restricts ClientID to the authorization server with this
	// issuer identifier; "" uses it with any. Credentials registered with
	// one authorization server mean nothing to another.
	Issuer string
	// ClientMetadataURL is the HTTPS URL of this client's Client ID
	// Metadata Document, used as its client_id with an authorization
	// server that advertises client_id_metadata_document_supported.
	ClientMetadataURL string
	// ClientName is the client_name a dynamic registration gives
	// (default "mcpwire").
	ClientName string
	// PrivateKey, when set, authenticates the client at the token
	// endpoint with a signed assertion (private_key_jwt, RFC 7523 §2.2):
	// an *ecdsa.PrivateKey on P-256 (ES256) or an *rsa.PrivateKey
	// (RS256). KeyID is its "kid", if the server wants one.
	PrivateKey crypto.Signer
	KeyID      string

	// Grant is how a token is obtained; nil is the authorization code
	// flow with PKCE, driven by Authorize.
	Grant Grant
	// RedirectURL is the redirect_uri of the authorization code flow;
	// it must match the registered one exactly (for a native client, a
	// loopback URL with its port, RFC 8252 §7.3).
	RedirectURL string
	// Authorize is the user's step of the authorization code flow: it is
	// given the authorization URL, has the user's browser visit it, and
	// returns the URL the browser was redirected to. Loopback does it for
	// a command-line program; FollowRedirect for tests and servers that
	// approve without a user.
	Authorize func(ctx context.Context, authorizationURL string) (*url.URL, error)

	// DPoP, when set, binds tokens to this key (RFC 9449): a proof goes
	// with every token request and with every request to the server.
	DPoP *dpop.Key
	// Store keeps tokens; nil keeps them in memory (MemoryStore).
	Store Store
	// HTTPClient talks to authorization servers and fetches metadata;
	// nil is a client with a 30-second timeout.
	HTTPClient *http.Client
	// Logger records the steps of a sign-in, never a token, code,
	// verifier or secret; nil logs nothing.
	Logger *slog.Logger
}

// Grant is a way to obtain a token without a user: ClientCredentials,
// JWTBearer or EnterpriseManaged.
type Grant interface{ grant() }

// ClientCredentials is the client credentials grant (OAuth Client
// Credentials extension), for a machine acting as itself: the client
// authenticates with Config.ClientSecret (client_secret_basic, or
// client_secret_post when that is all the server takes) or
// Config.PrivateKey (private_key_jwt).
type ClientCredentials struct{}

// JWTBearer is the JWT bearer grant (RFC 7523 §2.1), used for workload
// identity federation: Assertion returns a JWT the workload's platform
// issued, which the authorization server trusts. A refused assertion is
// reported as it is, never retried and never exchanged for another grant.
type JWTBearer struct {
	Assertion func(ctx context.Context) (string, error)
}

// EnterpriseManaged is enterprise-managed authorization (the Identity
// Assertion Authorization Grant): the user's identity provider exchanges
// their ID token for an ID-JAG (RFC 8693 token exchange) naming the
// authorization server and the resource, and the client presents that to
// the authorization server as a JWT bearer grant, authenticated as
// Config.ClientID.
type EnterpriseManaged struct {
	// TokenEndpoint is the identity provider's token endpoint.
	TokenEndpoint string
	// ClientID and ClientSecret are this client's credentials at the
	// identity provider (ClientSecret "" for a public client).
	ClientID, ClientSecret string
	// IDToken returns the user's ID token from the identity provider.
	IDToken func(ctx context.Context) (string, error)
}

func (ClientCredentials) grant() {}
func (JWTBearer) grant()         {}
func (EnterpriseManaged) grant() {}

// The refusals of a sign-in. Each error wraps one of them, names the
// rule, and never holds a token, code or secret.
var (
	// ErrInsecure: a metadata or authorization-server URL is not HTTPS
	// (plain HTTP is allowed only on loopback).
	ErrInsecure = errors.New("signin: insecure URL")
	// ErrResourceMismatch: the protected resource metadata names another
	// resource than the server's endpoint.
	ErrResourceMismatch = errors.New("signin: resource mismatch")
	// ErrIssuerMismatch: the authorization server's metadata, or its
	// authorization response (the "iss" parameter, RFC 9207), names
	// another issuer than the one the client asked.
	ErrIssuerMismatch = errors.New("signin: issuer mismatch")
	// ErrStateMismatch: the authorization response does not carry the
	// state the client sent.
	ErrStateMismatch = errors.New("signin: state mismatch")
	// ErrNoPKCE: the authorization server does not support PKCE with
	// S256, so the client must not proceed.
	ErrNoPKCE = errors.New("signin: the authorization server does not support PKCE (S256)")
	// ErrDenied: the authorization server refused (its error code and
	// description follow), or the server still refuses the token.
	ErrDenied = errors.New("signin: denied")
)
