package dpop

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"time"
)

// nonces makes and checks server nonces (RFC 9449 §9) without storing
// them: the nonce of a period is the HMAC-SHA256, under a secret key, of
// the period's number, so it cannot be guessed, is the same on every
// instance holding the key, and stops being accepted on its own.
type nonces struct {
	key      []byte
	lifetime time.Duration
}

// newNonces returns nonces sealed with key (a random one when empty),
// each current for lifetime (5 minutes when not positive).
func newNonces(key []byte, lifetime time.Duration) (*nonces, error) {
	if lifetime <= 0 {
		lifetime = 5 * time.Minute
	}
	switch {
	case len(key) == 0:
		key = make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return nil, err
		}
	case len(key) < 32:
		return nil, errors.New("dpop: NewChecker: Options.NonceKey needs at least 32 bytes")
	default:
		key = append([]byte(nil), key...)
	}
	return &nonces{key: key, lifetime: lifetime}, nil
}

// period returns the number of the period t falls in.
func (n *nonces) period(t time.Time) uint64 { return uint64(t.UnixNano() / int64(n.lifetime)) }

// of returns the nonce of period p.
func (n *nonces) of(p uint64) string {
	m := hmac.New(sha256.New, n.key)
	m.Write([]byte("mcpwire dpop nonce\x00"))
	m.Write(binary.BigEndian.AppendUint64(nil, p))
	return b64.EncodeToString(m.Sum(nil))
}

// current returns the nonce of now.
func (n *nonces) current(now time.Time) string { return n.of(n.period(now)) }

// valid reports whether nonce is the current one or the one before.
func (n *nonces) valid(nonce string, now time.Time) bool {
	p := n.period(now)
	return hmac.Equal([]byte(nonce), []byte(n.of(p))) || hmac.Equal([]byte(nonce), []byte(n.of(p-1)))
}
