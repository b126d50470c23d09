package mcphttp

import (
	"net"
	"net/url"
	"strings"
)

// isLoopbackName reports whether host (without port or brackets) is one of
// the loopback names accepted by default.
func isLoopbackName(host string) bool {
	switch strings.ToLower(host) {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	return false
}

// hostName returns the name part of a Host value: without its port and
// without the brackets of an IPv6 literal.
func hostName(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]")
}

// hostAllowed applies the DNS-rebinding check to the Host header.
func (h *Handler) hostAllowed(host string) bool {
	if host == "" {
		return false
	}
	name := hostName(host)
	if isLoopbackName(name) {
		return true
	}
	for _, a := range h.opts.AllowedHosts {
		if a == "*" || strings.EqualFold(a, host) || strings.EqualFold(a, name) {
			return true
		}
	}
	return false
}

// originAllowed checks a present Origin header: a loopback origin (http or
// https, any port) or one of Options.AllowedOrigins.
func (h *Handler) originAllowed(origin string) bool {
	for _, a := range h.opts.AllowedOrigins {
		if a == "*" || strings.EqualFold(strings.TrimSuffix(a, "/"), origin) {
			return true
		}
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Path != "" || u.RawQuery != "" || u.User != nil {
		return false
	}
	return isLoopbackName(u.Hostname())
}

// acceptsSSE reports whether the Accept header allows text/event-stream.
// A request without Accept accepts anything.
func acceptsSSE(accept []string) bool {
	if len(accept) == 0 {
		return true
	}
	for _, line := range accept {
		for _, part := range strings.Split(line, ",") {
			mt, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			mt = strings.ToLower(strings.TrimSpace(mt))
			if mt != "text/event-stream" && mt != "text/*" && mt != "*/*" {
				continue
			}
			if !zeroQ(params) {
				return true
			}
		}
	}
	return false
}

// zeroQ reports whether media-range parameters hold q=0 (not acceptable).
func zeroQ(params string) bool {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			v = strings.TrimRight(strings.TrimSpace(v), "0")
			return v == "" || v == "0." || v == "0"
		}
	}
	return false
}
