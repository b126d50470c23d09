package mcphttp

import (
	"net/http"
)

// Default paths at which Serve answers the health checks (see
// ServeOptions).
const (
	defaultLivePath  = "/livez"
	defaultReadyPath = "/readyz"
)

// LiveHandler returns the liveness check: 200 for as long as the process
// serves HTTP at all, draining, closed or overloaded alike, so that an
// orchestrator restarts only a process that stopped answering (a wedged
// or dead one), never one that is merely busy or shutting down. It
// answers GET and HEAD (405 otherwise) and checks neither Host nor Origin:
// probes come from load balancers and orchestrators, which name the
// instance by address.
func (h *Handler) LiveHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeHealth(w, r, http.StatusOK, "ok")
	})
}

// ReadyHandler returns the readiness check: 200 while the handler takes
// new work, and 503 from the moment Drain or Close is called, so that a
// load balancer takes the instance out of rotation before it stops (call
// Drain, wait for the balancer's probe interval and failure threshold to
// pass, then Close: ServeOptions.DrainDelay does that). With
// Options.UnreadyWhenFull it is 503 too while the POSTs in flight hold
// Options.MaxRequests or Options.MaxRequestBytes. The body is a small JSON
// object whose "status" says why: "ok", "draining", "closed" or "full".
// It answers GET and HEAD (405 otherwise) and checks neither Host nor
// Origin, as LiveHandler.
func (h *Handler) ReadyHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		status, state := http.StatusOK, "ok"
		switch {
		case h.isClosed():
			status, state = http.StatusServiceUnavailable, "closed"
		case h.draining.Load():
			status, state = http.StatusServiceUnavailable, "draining"
		case h.opts.UnreadyWhenFull && h.admission.full():
			status, state = http.StatusServiceUnavailable, "full"
		}
		writeHealth(w, r, status, state)
	})
}

// Drain starts the handler's shutdown without refusing anything: from now
// on ReadyHandler answers 503, while every request is served as before
// until Close. It is idempotent.
func (h *Handler) Drain() { h.draining.Store(true) }

// writeHealth answers a health check with {"status": state}.
func writeHealth(w http.ResponseWriter, r *http.Request, status int, state string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		status, state = http.StatusMethodNotAllowed, "method not allowed"
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write([]byte(`{"status":"` + state + `"}` + "\n"))
	}
}
