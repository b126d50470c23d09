package mcp

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
)

// State the server hands to clients (cursors, requestState) is sealed
// under keys derived from one secret, Options.StateKey: servers that share
// it accept each other's state, and a key derived for one purpose is never
// used for another.
func deriveKey(secret []byte, purpose string) [32]byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("mcpwire/" + purpose))
	var k [32]byte
	copy(k[:], m.Sum(nil))
	return k
}

// errUnsealable covers state that was altered, truncated, or sealed under
// another key: AES-GCM cannot tell them apart, and neither should the
// message.
var errUnsealable = errors.New("unsealable")

// sealer encrypts and authenticates state with AES-256-GCM, so that a
// client can neither read what the server keeps in it (answers, a
// handler's remembered values) nor change it.
type sealer struct{ aead cipher.AEAD }

func newSealer(key [32]byte) sealer {
	block, err := aes.NewCipher(key[:])
	if err != nil {
		panic(err) // a 32-byte key is always valid
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return sealer{aead}
}

// seal returns base64url(nonce | ciphertext).
func (s sealer) seal(plain []byte) string {
	ns := s.aead.NonceSize()
	buf := make([]byte, ns, ns+len(plain)+s.aead.Overhead())
	rand.Read(buf)
	buf = s.aead.Seal(buf, buf[:ns], plain, nil)
	return base64.RawURLEncoding.EncodeToString(buf)
}

// open reverses seal.
func (s sealer) open(text string) ([]byte, error) {
	buf, err := base64.RawURLEncoding.Strict().DecodeString(text)
	ns := s.aead.NonceSize()
	if err != nil || len(buf) < ns+s.aead.Overhead() {
		return nil, errUnsealable
	}
	plain, err := s.aead.Open(nil, buf[:ns], buf[ns:], nil)
	if err != nil {
		return nil, errUnsealable
	}
	return plain, nil
}
