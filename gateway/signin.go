package gateway

import (
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/mcpwire/mcpwire/client/signin"
)

// ClientCredentials signs the gateway in to an HTTP upstream as itself,
// with OAuth's client credentials grant (MCP authorization: the upstream
// names its authorization server, package client/signin does the rest):
// the sign-in a configuration file can describe, since no user is there
// to approve it. The client is registered with the authorization server
// beforehand; it authenticates with its secret or, with PrivateKeyFile,
// with a signed assertion (private_key_jwt). A sign-in that needs a user
// (the authorization code flow) is Upstream.SignIn, from Go.
type ClientCredentials struct {
	// ClientID is the client's registered id; required.
	ClientID string `yaml:"clientId" json:"clientId"`
	// ClientSecret is its secret (client_secret_basic, or
	// client_secret_post when that is all the server takes).
	ClientSecret string `yaml:"clientSecret,omitempty" json:"clientSecret,omitempty"`
	// PrivateKeyFile is a PEM file holding a P-256 ECDSA key (ES256) or
	// an RSA key (RS256), PKCS #8, SEC 1 or PKCS #1, in place of a secret.
	PrivateKeyFile string `yaml:"privateKeyFile,omitempty" json:"privateKeyFile,omitempty"`
	// KeyID is the key's "kid", when the authorization server wants one.
	KeyID string `yaml:"keyId,omitempty" json:"keyId,omitempty"`
	// Issuer, when set, is the only authorization server the credentials
	// are given to (the issuer identifier its metadata declares).
	Issuer string `yaml:"issuer,omitempty" json:"issuer,omitempty"`
}

// check reports what is missing or contradictory.
func (cc *ClientCredentials) check() error {
	switch {
	case cc.ClientID == "":
		return errors.New("clientCredentials needs a clientId")
	case (cc.ClientSecret == "") == (cc.PrivateKeyFile == ""):
		return errors.New("clientCredentials needs exactly one of clientSecret and privateKeyFile")
	}
	return nil
}

// flow is the sign-in cc describes.
func (cc *ClientCredentials) flow(log *slog.Logger) (*signin.Flow, error) {
	cfg := signin.Config{
		ClientID: cc.ClientID, ClientSecret: cc.ClientSecret, Issuer: cc.Issuer, KeyID: cc.KeyID,
		Grant: signin.ClientCredentials{}, Logger: log,
	}
	if cc.PrivateKeyFile != "" {
		key, err := readPrivateKey(cc.PrivateKeyFile)
		if err != nil {
			return nil, err
		}
		cfg.PrivateKey = key
	}
	return signin.New(cfg)
}

// readPrivateKey reads the first PEM block of file as a private key.
func readPrivateKey(file string) (crypto.Signer, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("clientCredentials: privateKeyFile: %w", err)
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("clientCredentials: privateKeyFile %s holds no PEM block", file)
	}
	var key any
	switch block.Type {
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	}
	if err != nil {
		return nil, fmt.Errorf("clientCredentials: privateKeyFile %s: %w", file, err)
	}
	s, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("clientCredentials: privateKeyFile %s: a %T cannot sign", file, key)
	}
	return s, nil
}
