package apps

import "strings"

// Policy returns the Content-Security-Policy a host serves a view with,
// built from the origins the resource declared and nothing else:
//
//	default-src 'none';
//	script-src 'self' 'unsafe-inline' <resourceDomains>;
//	style-src 'self' 'unsafe-inline' <resourceDomains>;
//	img-src 'self' data: <resourceDomains>;
//	font-src 'self' <resourceDomains>;
//	media-src 'self' data: <resourceDomains>;
//	connect-src <connectDomains, or 'none'>;
//	frame-src <frameDomains, or 'none'>;
//	object-src 'none';
//	base-uri <baseUriDomains, or 'self'>
//
// A nil CSP (the resource declared none) gives the same policy with every
// list empty: inline and same-origin scripts and styles, no network.
// connect-src names the declared origins only, without 'self', which the
// extension allows (a host may restrict further): a view's own origin is
// the host's sandbox, not its server. An entry that is not an origin
// (see [CSP]), such as one carrying a ';' that would add a directive, is
// an error: a host must not serve a view whose policy it cannot build.
func (c *CSP) Policy() (string, error) {
	var csp CSP
	if c != nil {
		csp = *c
		if err := (ResourceMeta{CSP: c}).check(); err != nil {
			return "", err
		}
	}
	var b strings.Builder
	directive := func(name, fixed string, list []string, empty string) {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString(name)
		if fixed != "" {
			b.WriteString(" " + fixed)
		}
		for _, d := range list {
			b.WriteString(" " + d)
		}
		if fixed == "" && len(list) == 0 {
			b.WriteString(" " + empty)
		}
	}
	r := csp.ResourceDomains
	directive("default-src", "'none'", nil, "")
	directive("script-src", "'self' 'unsafe-inline'", r, "")
	directive("style-src", "'self' 'unsafe-inline'", r, "")
	directive("img-src", "'self' data:", r, "")
	directive("font-src", "'self'", r, "")
	directive("media-src", "'self' data:", r, "")
	directive("connect-src", "", csp.ConnectDomains, "'none'")
	directive("frame-src", "", csp.FrameDomains, "'none'")
	directive("object-src", "'none'", nil, "")
	directive("base-uri", "", csp.BaseURIDomains, "'self'")
	return b.String(), nil
}
