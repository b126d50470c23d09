package scenario

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// ProgressRoutes is the part of a Session adapter that hands the SDK's
// progress notifications to the callbacks CallTool was given, by progress
// token. Its methods are safe for concurrent use.
type ProgressRoutes struct {
	prefix string
	last   atomic.Int64

	mu      sync.Mutex
	byToken map[string]func(Progress)
}

// NewProgressRoutes returns routes whose tokens are prefix-1, prefix-2 and
// so on.
func NewProgressRoutes(prefix string) *ProgressRoutes {
	return &ProgressRoutes{prefix: prefix, byToken: map[string]func(Progress){}}
}

// Add registers f under a new token and returns the token, for the call to
// send. The token stays registered after the call returns: an SDK may run
// its handler for a notification that preceded the result on the wire only
// after the call has returned.
func (r *ProgressRoutes) Add(f func(Progress)) string {
	token := fmt.Sprintf("%s-%d", r.prefix, r.last.Add(1))
	r.mu.Lock()
	r.byToken[token] = f
	r.mu.Unlock()
	return token
}

// Deliver passes p to the callback registered for token, which is matched
// by its fmt.Sprint form so that any representation of the token an SDK
// hands back works; a token nobody registered is dropped.
func (r *ProgressRoutes) Deliver(token any, p Progress) {
	r.mu.Lock()
	f := r.byToken[fmt.Sprint(token)]
	r.mu.Unlock()
	if f != nil {
		f(p)
	}
}

// ToolsOf converts an SDK's listed tools with conv, stopping at the first
// error. It returns nil for no tools.
func ToolsOf[T any](tools []T, conv func(T) (Tool, error)) ([]Tool, error) {
	var out []Tool
	for _, t := range tools {
		tool, err := conv(t)
		if err != nil {
			return nil, err
		}
		out = append(out, tool)
	}
	return out, nil
}

// UpdateRoutes is the part of a Session adapter that hands the SDK's
// notifications/resources/updated to the callback Subscribe was given, by
// URI. Its methods are safe for concurrent use.
type UpdateRoutes struct {
	mu    sync.Mutex
	byURI map[string]func()
}

// Set registers f for uri, replacing any earlier callback. It stays
// registered after unsubscribing, so that a late update is seen.
func (r *UpdateRoutes) Set(uri string, f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byURI == nil {
		r.byURI = map[string]func(){}
	}
	r.byURI[uri] = f
}

// Deliver calls the callback registered for uri; an update for a URI nobody
// registered is dropped.
func (r *UpdateRoutes) Deliver(uri string) {
	r.mu.Lock()
	f := r.byURI[uri]
	r.mu.Unlock()
	if f != nil {
		f()
	}
}
