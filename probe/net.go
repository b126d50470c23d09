package probe

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// defaultPorts are the ports a URL without one reaches.
var defaultPorts = map[string]int{"http": 80, "https": 443, "ws": 80, "wss": 443}

// Host returns the pattern "net:<host>" or, when port is not 0,
// "net:<host>:<port>". The host is lower-cased and loses a trailing dot;
// an IP address is written in its canonical form (an IPv4-mapped IPv6
// address as IPv4, IPv6 in brackets). Hostnames must be ASCII (give an
// internationalised name in its "xn--" form), and a name whose last label
// is all digits is refused, since resolvers may read "127.1" as an address.
func Host(host string, port int) (Pattern, error) {
	h, err := canonicalHost(host)
	if err != nil {
		return Pattern{}, err
	}
	switch {
	case port < 0 || port > 65535:
		return Pattern{}, fmt.Errorf("port %d is out of range 1..65535", port)
	case port > 0:
		h += ":" + strconv.Itoa(port)
	}
	return Pattern{Verb: Net, Target: h}, nil
}

// URL returns the net pattern of the host a URL reaches. The port is made
// explicit when the scheme implies it (http and ws: 80, https and wss: 443),
// so "https://Example.com/a" and "https://example.com:443/b" both give
// "net:example.com:443". The scheme, path and any user info are not part
// of the pattern.
func URL(raw string) (Pattern, error) {
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL again, in full
		}
		return Pattern{}, fmt.Errorf("URL %s does not parse: %s", clip.Quote(raw), clip.String(err.Error()))
	}
	if u.Scheme == "" || u.Host == "" {
		return Pattern{}, fmt.Errorf("URL %s needs a scheme and a host, such as \"https://example.com/\"", clip.Quote(raw))
	}
	port := defaultPorts[strings.ToLower(u.Scheme)]
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return Pattern{}, fmt.Errorf("URL %s has port %s; give one in 1..65535", clip.Quote(raw), clip.Quote(p))
		}
		port = n
	}
	return Host(u.Hostname(), port)
}

// canonicalHost returns the canonical text of a host name or IP address.
func canonicalHost(host string) (string, error) {
	h := strings.TrimSuffix(host, ".")
	if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		h = h[1 : len(h)-1]
	}
	if h == "" {
		return "", errors.New("host is empty")
	}
	if strings.Contains(h, ":") || isDigitsAndDots(h) {
		addr, err := netip.ParseAddr(h)
		if err != nil || addr.Zone() != "" {
			return "", fmt.Errorf("host %s is not a valid IP address; write IPv4 as a.b.c.d and IPv6 without a zone", clip.Quote(host))
		}
		addr = addr.Unmap()
		if addr.Is6() {
			return "[" + addr.String() + "]", nil
		}
		return addr.String(), nil
	}
	h = strings.ToLower(h)
	if len(h) > 253 {
		return "", fmt.Errorf("host %s is longer than 253 bytes", clip.Quote(host))
	}
	labels := strings.Split(h, ".")
	for _, l := range labels {
		if err := checkLabel(l); err != nil {
			return "", fmt.Errorf("host %s: %v", clip.Quote(host), err)
		}
	}
	if isDigitsAndDots(labels[len(labels)-1]) {
		return "", fmt.Errorf("host %s looks like an IP address in a non-standard form; write it as a.b.c.d", clip.Quote(host))
	}
	return h, nil
}

// checkLabel checks one lower-cased DNS label.
func checkLabel(l string) error {
	if l == "" || len(l) > 63 {
		return fmt.Errorf("label %s must be 1 to 63 bytes long", clip.Quote(l))
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_':
		case c == '-' && i > 0 && i < len(l)-1:
		case c >= 0x80:
			return fmt.Errorf("label %s is not ASCII; give the name in its \"xn--\" form", clip.Quote(l))
		default:
			return fmt.Errorf("label %s holds %q; use letters, digits, '-' and '_'", clip.Quote(l), string(c))
		}
	}
	return nil
}

func isDigitsAndDots(s string) bool {
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && s[i] != '.' {
			return false
		}
	}
	return s != ""
}

// checkHost reports whether t is a canonical net target.
func checkHost(t string) error {
	host, port := t, 0
	if i := strings.LastIndexByte(t, ':'); i >= 0 && !strings.HasSuffix(t, "]") {
		if strings.Contains(t[:i], ":") && !strings.HasSuffix(t[:i], "]") {
			return fmt.Errorf("net target %s is not canonical: bracket the IPv6 address", clip.Quote(t))
		}
		n, err := strconv.Atoi(t[i+1:])
		if err != nil {
			return fmt.Errorf("net target %s has a bad port %s", clip.Quote(t), clip.Quote(t[i+1:]))
		}
		host, port = t[:i], n
	}
	p, err := Host(host, port)
	if err != nil {
		return err
	}
	if p.Target != t {
		return fmt.Errorf("net target %s is not canonical; write it as %s", clip.Quote(t), clip.Quote(p.Target))
	}
	return nil
}
