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
// under keys derived from the secrets of Options.StateKey or StateKeys:
// servers that share them accept each other's state, and a key derived
// for one purpose is never used for another.
func deriveKey(secret []byte, purpose string) [32]byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("mcpwire/" + purpose))
	var k [32]byte
	copy(k[:], m.Sum(nil))
	return k
}

// errUnsealable covers state that was altered, truncated, or sealed under
// another key or one this server does not hold: AES-GCM cannot tell them
// apart, and neither should the message.
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

// A sealed value is base64url(n | id | nonce | ciphertext): n is the
// length of the sealing key's ID (at most maxStateKeyIDLen; larger values
// are free for other formats), and n and id are GCM's additional data, so
// that the ID is authenticated with the rest.

// sealState seals plain under the key set's sealing key.
func (r *keyring) sealState(plain []byte) string {
	k := r.sealing
	ns, hl := k.state.aead.NonceSize(), 1+len(k.id)
	buf := make([]byte, hl+ns, hl+ns+len(plain)+k.state.aead.Overhead())
	buf[0] = byte(len(k.id))
	copy(buf[1:], k.id)
	rand.Read(buf[hl:])
	buf = k.state.aead.Seal(buf, buf[hl:hl+ns], plain, buf[:hl])
	return base64.RawURLEncoding.EncodeToString(buf)
}

// openState reverses sealState, with the key the value names.
func (r *keyring) openState(text string) ([]byte, error) {
	buf, err := base64.RawURLEncoding.Strict().DecodeString(text)
	if err != nil || len(text) != base64.RawURLEncoding.EncodedLen(len(buf)) || // the decoder skips newlines
		len(buf) == 0 || buf[0] > maxStateKeyIDLen || len(buf) < 1+int(buf[0]) {
		return nil, errUnsealable
	}
	hl := 1 + int(buf[0])
	k := r.key(buf[1:hl])
	if k == nil {
		return nil, errUnsealable
	}
	ns := k.state.aead.NonceSize()
	if len(buf) < hl+ns+k.state.aead.Overhead() {
		return nil, errUnsealable
	}
	plain, err := k.state.aead.Open(nil, buf[hl:hl+ns], buf[hl+ns:], buf[:hl])
	if err != nil {
		return nil, errUnsealable
	}
	return plain, nil
}
