package signin

import (
	"context"
	"sync"
	"time"
)

// Token is what an authorization server issued: an access token, the
// refresh token that renews it, if any, and how long it lasts. Its String
// method never shows the tokens.
type Token struct {
	// AccessToken is sent to the resource it was issued for, and nowhere
	// else.
	AccessToken string
	// Type is "Bearer", or "DPoP" for a token bound to Config.DPoP.
	Type string
	// RefreshToken renews the access token; "" when none was issued.
	RefreshToken string
	// Expiry is when the access token expires; zero when the server did
	// not say.
	Expiry time.Time
	// Scope is the space-separated scope granted (or, when the server did
	// not say, requested).
	Scope string
}

// String describes the token without its secrets.
func (t *Token) String() string {
	if t == nil {
		return "<no token>"
	}
	return "signin.Token{Type:" + t.Type + " Scope:" + t.Scope + " AccessToken:<hidden>}"
}

// expired reports whether the access token has expired or will within a
// few seconds.
func (t *Token) expired(now time.Time) bool {
	return !t.Expiry.IsZero() && !now.Add(10*time.Second).Before(t.Expiry)
}

// Key identifies a token in a Store: the resource it is for, the
// authorization server that issued it and the client it was issued to, so
// that no token is ever sent to another resource or used with another
// server's credentials.
type Key struct {
	Resource, Issuer, ClientID string
}

// Store keeps tokens between sign-ins; a Store shared by several programs
// lets them share a sign-in. Implementations must be safe for concurrent
// use, and must keep tokens as secrets: never logged, at rest only where
// the user's other credentials are.
type Store interface {
	// Load returns the token saved under k, or nil and no error when none
	// is.
	Load(ctx context.Context, k Key) (*Token, error)
	// Save keeps t under k; a nil t forgets the token.
	Save(ctx context.Context, k Key, t *Token) error
}

// MemoryStore returns a Store that keeps tokens in memory, for the life of
// the program: the default.
func MemoryStore() Store { return &memoryStore{m: map[Key]*Token{}} }

type memoryStore struct {
	mu sync.Mutex
	m  map[Key]*Token
}

func (s *memoryStore) Load(_ context.Context, k Key) (*Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[k], nil
}

func (s *memoryStore) Save(_ context.Context, k Key, t *Token) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t == nil {
		delete(s.m, k)
	} else {
		s.m[k] = t
	}
	return nil
}
