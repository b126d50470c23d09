package oauth

import (
	"net/http"
	"slices"
	"strings"
	"sync"
)

// stepUp records the scopes a request's operations were refused for (see
// auth.ChallengeScopes): the union of every challenge, for a batch.
type stepUp struct {
	mu     sync.Mutex
	did    bool
	scopes []string
}

// add is the request's scope challenge; it never blocks.
func (s *stepUp) add(scopes []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.did = true
	for _, sc := range scopes {
		if !slices.Contains(s.scopes, sc) {
			s.scopes = append(s.scopes, sc)
		}
	}
}

// challenged reports whether an operation was refused for scopes.
func (s *stepUp) challenged() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.did
}

// needed returns the scopes of the challenge, the endpoint's required
// ones first, and whether there was one.
func (s *stepUp) needed(required []string) ([]string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.did {
		return nil, false
	}
	out := slices.Clone(required)
	for _, sc := range s.scopes {
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out, true
}

// challengeWriter is the ResponseWriter of a request that passed the
// token check: when the response's status is written, it becomes 403 with
// an insufficient_scope challenge if the server refused the request's
// operation for scopes (stepUp), the body going out unchanged. Flush and
// Unwrap keep http.Flusher and http.ResponseController working through it;
// a flush before any write decides the status as a write does.
//
// Like any ResponseWriter it is used by one goroutine at a time.
type challengeWriter struct {
	http.ResponseWriter
	rs     *ResourceServer
	up     *stepUp
	scheme string // of the request's credentials
	wrote  bool
}

// WriteHeader writes the status, or the 403 that replaces it.
func (w *challengeWriter) WriteHeader(code int) {
	if w.wrote || code < 200 {
		// Informational responses (103 Early Hints) decide nothing.
		w.ResponseWriter.WriteHeader(code)
		return
	}
	w.wrote = true
	if scopes, ok := w.up.needed(w.rs.required); ok {
		w.rs.setChallenges(w.Header(), w.scheme, codeInsufficientScope,
			"the access token does not grant the scopes this operation needs", strings.Join(scopes, " "))
		w.rs.log.Info("oauth: operation refused", "status", http.StatusForbidden, "scope", strings.Join(scopes, " "))
		code = http.StatusForbidden
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write writes body bytes, the status first if it was not written.
func (w *challengeWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Flush implements http.Flusher.
func (w *challengeWriter) Flush() { _ = w.FlushError() }

// FlushError is the flush http.ResponseController calls.
func (w *challengeWriter) FlushError() error {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap returns the ResponseWriter this one wraps, for
// http.ResponseController.
func (w *challengeWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

var _ http.Flusher = (*challengeWriter)(nil)
