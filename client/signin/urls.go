package signin

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// checkURL refuses an authorization-server or metadata URL that is not
// HTTPS, unless its host is a loopback address (Communication Security:
// every authorization endpoint is served over HTTPS; loopback is how
// development and tests run).
func checkURL(what, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%w: %s %q is not an absolute URL", ErrInsecure, what, raw)
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && isLoopback(u.Hostname()):
	default:
		return nil, fmt.Errorf("%w: %s %q is not https (plain http only on loopback)", ErrInsecure, what, raw)
	}
	if u.Fragment != "" {
		return nil, fmt.Errorf("%w: %s %q has a fragment", ErrInsecure, what, raw)
	}
	return u, nil
}

// isLoopback reports whether host is localhost or a loopback IP.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// origin is scheme://host[:port] of u, lowercased.
func origin(u *url.URL) string {
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}

// sameOrigin reports whether a and b have one origin, default ports
// spelled or not.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// covers reports whether the protected resource res (from its metadata)
// is the MCP endpoint target or a resource above it: the same origin and
// a path that is a whole-segment prefix of the endpoint's. A metadata
// document naming any other resource is refused (RFC 9728 §3.3; the MCP
// specification's Resource Parameter Implementation).
func covers(res, target *url.URL) bool {
	if !sameOrigin(res, target) || res.RawQuery != "" {
		return false
	}
	rp := strings.TrimSuffix(res.EscapedPath(), "/")
	tp := target.EscapedPath()
	return rp == "" || tp == rp || strings.HasPrefix(tp, rp+"/")
}

// wellKnown returns base's origin with the path /.well-known/name, then
// base's own path appended (RFC 8414 §3.1, RFC 9728 §3.1: the well-known
// segment goes between the host and the path).
func wellKnown(base *url.URL, name string) string {
	path := strings.TrimSuffix(base.EscapedPath(), "/")
	return origin(base) + "/.well-known/" + name + path
}

// canonical is the resource indicator for the endpoint u (RFC 8707 §2):
// no fragment, no query, scheme and host lowercased.
func canonical(u *url.URL) string {
	c := *u
	c.Scheme, c.Host = strings.ToLower(c.Scheme), strings.ToLower(c.Host)
	c.Fragment, c.RawFragment, c.RawQuery, c.ForceQuery = "", "", "", false
	return c.String()
}
