package mcphttp

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// trustedProxies is Options.TrustedProxies, parsed.
type trustedProxies []netip.Prefix

// parseTrustedProxies reads addresses ("10.0.0.7") and CIDR prefixes
// ("10.0.0.0/8", "fd00::/8").
func parseTrustedProxies(list []string) (trustedProxies, error) {
	var out trustedProxies
	for _, s := range list {
		s = strings.TrimSpace(s)
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("Options.TrustedProxies: %q is neither an IP address nor a CIDR prefix", s)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

func (t trustedProxies) trusts(a netip.Addr) bool {
	for _, p := range t {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// remoteAddr returns the address r came from: its direct peer's IP, or,
// when the peer is a trusted proxy, the address the proxies forwarded
// (Forwarded, else X-Forwarded-For), read from the right: the first hop
// that is not a trusted proxy is the client. A hop that cannot be parsed
// ends the walk at the last trusted one, so that a request whose chain is
// garbled counts against its proxy rather than against an address of the
// client's choosing.
func (h *Handler) remoteAddr(r *http.Request) string {
	if len(h.proxies) == 0 {
		// No proxy to look past: the peer's host as net/http gives it
		// (already canonical), without parsing or a copy.
		if host, ok := peerHost(r.RemoteAddr); ok {
			return host
		}
	}
	peer, ok := hostAddr(r.RemoteAddr)
	if !ok {
		return r.RemoteAddr // not an IP (a unix socket): all such peers are one
	}
	if len(h.proxies) == 0 || !h.proxies.trusts(peer) {
		return peer.String()
	}
	chain := forwardedFor(r.Header)
	for i := len(chain) - 1; i >= 0; i-- {
		a, ok := hostAddr(chain[i])
		if !ok {
			break
		}
		peer = a
		if !h.proxies.trusts(a) {
			break
		}
	}
	return peer.String()
}

// peerHost is the host part of a connection's address as net/http gives
// it ("192.0.2.1:5000", "[2001:db8::1]:5000"), a substring; ok is false
// for anything else.
func peerHost(remote string) (string, bool) {
	i := strings.LastIndexByte(remote, ':')
	if i <= 0 {
		return "", false
	}
	host := remote[:i]
	if host[0] == '[' {
		if host[len(host)-1] != ']' {
			return "", false
		}
		host = host[1 : len(host)-1]
	}
	if strings.IndexByte(host, '%') >= 0 || strings.HasPrefix(host, "::ffff:") {
		return "", false // a zone, or a mapped IPv4 address: hostAddr normalises it
	}
	return host, host != ""
}

// hostAddr parses an address with or without a port, IPv6 with or without
// brackets; IPv4-mapped IPv6 addresses are unmapped.
func hostAddr(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	if host, _, err := net.SplitHostPort(s); err == nil {
		s = host
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	if i := strings.IndexByte(s, '%'); i >= 0 { // a zone names no one
		s = s[:i]
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

// forwardedFor returns the hops a request was forwarded through, the
// client first: the "for" parameters of the Forwarded header (RFC 7239)
// when there is one, else the X-Forwarded-For list. Several lines of a
// header are one list, in order.
func forwardedFor(hd http.Header) []string {
	var hops []string
	if lines := hd.Values("Forwarded"); len(lines) > 0 {
		for _, line := range lines {
			for _, elem := range strings.Split(line, ",") {
				hop := "" // an element without for= is a hop of unknown address
				for _, pair := range strings.Split(elem, ";") {
					k, v, _ := strings.Cut(strings.TrimSpace(pair), "=")
					if strings.EqualFold(strings.TrimSpace(k), "for") {
						hop = strings.Trim(strings.TrimSpace(v), `"`)
					}
				}
				hops = append(hops, hop)
			}
		}
		return hops
	}
	for _, line := range hd.Values("X-Forwarded-For") {
		for _, hop := range strings.Split(line, ",") {
			hops = append(hops, strings.TrimSpace(hop))
		}
	}
	return hops
}
