package mcp

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"hash"
)

// MinStateKeyLen is the shortest secret Options.StateKey and
// Options.StateKeys accept, in bytes. The library cannot measure a
// secret's entropy: give 32 random bytes (or a longer passphrase).
const MinStateKeyLen = 32

// maxStateKeyIDLen is the longest StateKey.ID, in bytes: the ID travels in
// every cursor and requestState its key seals, so short ones ("k1",
// "2026-08") keep them short.
const maxStateKeyIDLen = 16

// StateKey is one key of a key set (Options.StateKeys): a secret and the
// ID that names it.
//
// Every cursor and requestState carries, authenticated but in the clear,
// the ID of the key that sealed it, so a server opening one picks that key
// directly; an ID the server does not hold is refused like any other
// state it cannot open. The ID is the key's name on every instance: the
// same ID must stand for the same Secret everywhere, and two keys of one
// set cannot share an ID. Options.StateKey is the key set holding one key
// with the empty ID.
type StateKey struct {
	// ID names the key: at most 16 bytes, not secret. It travels in every
	// cursor and requestState the key seals, so short IDs ("k1",
	// "2026-08") keep them short.
	ID string
	// Secret is at least MinStateKeyLen bytes. The keys that seal
	// cursors and requestState are derived from it (HMAC-SHA256, one per
	// purpose), so it is never used as a key itself.
	Secret []byte
}

// CheckStateKeys reports what NewServer would panic on in the state key
// options (StateKey, StateKeys), so that a program that reads its keys
// from its configuration can say what is wrong instead of panicking.
func (o *Options) CheckStateKeys() error {
	_, err := newKeyring(o.StateKey, o.StateKeys)
	return err
}

// keyring holds what a server's state keys derive: one set per key, the
// first one sealing and every one opening. It is not changed once built.
type keyring struct {
	sealing *stateKey
	byID    map[string]*stateKey
}

// stateKey is what one StateKey derives.
type stateKey struct {
	id        string
	cursorKey [32]byte
	cursor    hash.Hash // HMAC-SHA256 under cursorKey, cloned for each use, never written
	state     sealer    // seals requestState
}

// newKeyring builds the keys of Options.StateKey or Options.StateKeys, or a
// random key (with the empty ID) when both are empty.
func newKeyring(single []byte, set []StateKey) (*keyring, error) {
	switch {
	case len(single) > 0 && len(set) > 0:
		return nil, fmt.Errorf("mcp: Options.StateKey and Options.StateKeys are both set; StateKey is the key set []StateKey{{Secret: StateKey}}, so give only StateKeys")
	case len(single) > 0:
		if len(single) < MinStateKeyLen {
			return nil, fmt.Errorf("mcp: Options.StateKey is %d bytes; a state key needs at least %d (MinStateKeyLen)", len(single), MinStateKeyLen)
		}
		set = []StateKey{{Secret: single}}
	case len(set) == 0:
		secret := make([]byte, 32)
		rand.Read(secret)
		set = []StateKey{{Secret: secret}}
	}
	r := &keyring{byID: make(map[string]*stateKey, len(set))}
	for i, k := range set {
		switch {
		case len(k.ID) > maxStateKeyIDLen:
			return nil, fmt.Errorf("mcp: Options.StateKeys[%d]: ID %q is %d bytes; at most %d", i, k.ID, len(k.ID), maxStateKeyIDLen)
		case len(k.Secret) < MinStateKeyLen:
			return nil, fmt.Errorf("mcp: Options.StateKeys[%d] (ID %q): the secret is %d bytes; a state key needs at least %d (MinStateKeyLen)", i, k.ID, len(k.Secret), MinStateKeyLen)
		case r.byID[k.ID] != nil:
			return nil, fmt.Errorf("mcp: Options.StateKeys[%d]: ID %q is taken by an earlier key; every key of a set needs its own ID", i, k.ID)
		}
		sk := &stateKey{id: k.ID, cursorKey: deriveKey(k.Secret, "cursor"),
			state: newSealer(deriveKey(k.Secret, "requestState"))}
		sk.cursor = hmac.New(sha256.New, sk.cursorKey[:])
		r.byID[k.ID] = sk
		if i == 0 {
			r.sealing = sk
		}
	}
	return r, nil
}

// key returns the key with the ID id, nil when there is none.
func (r *keyring) key(id []byte) *stateKey {
	return r.byID[string(id)]
}

// mac returns a fresh HMAC under the key's cursor key: a clone of one
// keyed once, which saves hashing the key's pads on every cursor.
func (k *stateKey) mac() hash.Hash {
	if c, ok := k.cursor.(hash.Cloner); ok {
		if h, err := c.Clone(); err == nil {
			return h
		}
	}
	return hmac.New(sha256.New, k.cursorKey[:])
}
