package jwtauth

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"fmt"
	"strings"

	jose "github.com/go-jose/go-jose/v4"
)

// fits reports whether k may verify a signature made with alg: its type
// (and curve) must be the algorithm's, its own "alg" (if any) must be alg
// and its "use" (if any) must be "sig".
func fits(k jose.JSONWebKey, alg string) bool {
	if (k.Algorithm != "" && k.Algorithm != alg) || (k.Use != "" && k.Use != "sig") {
		return false
	}
	switch key := k.Key.(type) {
	case *rsa.PublicKey:
		return strings.HasPrefix(alg, "RS") || strings.HasPrefix(alg, "PS")
	case *ecdsa.PublicKey:
		return curveAlg[key.Curve] == alg
	case ed25519.PublicKey:
		return alg == "EdDSA"
	}
	return false
}

// curveAlg is the ECDSA algorithm of each curve.
var curveAlg = map[elliptic.Curve]string{
	elliptic.P256(): "ES256",
	elliptic.P384(): "ES384",
	elliptic.P521(): "ES512",
}

// usable returns the public signing keys of set, dropping symmetric keys
// (a key set is public: an "oct" key in it is no secret), encryption keys
// and keys of types this package cannot verify with. Private keys are
// reduced to their public halves.
func usable(set []jose.JSONWebKey) []jose.JSONWebKey {
	var out []jose.JSONWebKey
	for _, k := range set {
		if k.Use != "" && k.Use != "sig" {
			continue
		}
		if !k.IsPublic() {
			k = k.Public()
		}
		switch k.Key.(type) {
		case *rsa.PublicKey, *ecdsa.PublicKey, ed25519.PublicKey:
			out = append(out, k)
		}
	}
	return out
}

// match returns the keys of set a token with key id kid and algorithm alg
// may name: those with that kid or, when kid is empty, every key fitting
// alg.
func match(set []jose.JSONWebKey, kid, alg string) []jose.JSONWebKey {
	var out []jose.JSONWebKey
	for _, k := range set {
		if (kid != "" && k.KeyID == kid) || (kid == "" && fits(k, alg)) {
			out = append(out, k)
		}
	}
	return out
}

// unknownKey is the refusal of a token whose key is not in the set.
func unknownKey(kid string) error {
	if kid == "" {
		return fmt.Errorf("%w: no key id, and no key fits the algorithm", ErrUnknownKey)
	}
	return ErrUnknownKey
}
