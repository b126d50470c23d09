package validate

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// defaultSchemes are the schemes URL allows when the caller names none.
var defaultSchemes = []string{"http", "https"}

// hostSchemes are schemes whose URLs are meaningless without a host.
var hostSchemes = []string{"http", "https", "ws", "wss", "ftp", "ftps"}

// URL checks that s is an absolute URL whose scheme is one of
// allowedSchemes (compared case-insensitively; "http" and "https" when none
// are given) and returns it parsed. http, https, ws, wss, ftp and ftps URLs
// must also name a host. Surrounding white space is refused rather than
// trimmed, and so are URLs such as "javascript:..." unless that scheme is
// explicitly allowed.
func URL(s string, allowedSchemes ...string) (*url.URL, error) {
	if len(allowedSchemes) == 0 {
		allowedSchemes = defaultSchemes
	}
	want := strings.Join(allowedSchemes, ", ")
	if s == "" {
		return nil, fmt.Errorf("URL is empty; give an absolute URL with scheme %s", want)
	}
	if strings.TrimSpace(s) != s {
		return nil, fmt.Errorf("URL %q has leading or trailing white space; remove it", s)
	}
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("URL %q does not parse: %v", s, err)
	}
	if u.Scheme == "" {
		return nil, fmt.Errorf("URL %q has no scheme; give an absolute URL such as \"%s://example.com/path\"", s, allowedSchemes[0])
	}
	if !slices.ContainsFunc(allowedSchemes, func(a string) bool { return strings.EqualFold(a, u.Scheme) }) {
		return nil, fmt.Errorf("URL %q has scheme %q; only %s allowed", s, u.Scheme, schemeList(allowedSchemes))
	}
	if slices.Contains(hostSchemes, u.Scheme) && u.Host == "" {
		return nil, fmt.Errorf("URL %q has no host; write it as \"%s://host/path\"", s, u.Scheme)
	}
	return u, nil
}

// schemeList words the allowed schemes for an error message.
func schemeList(schemes []string) string {
	if len(schemes) == 1 {
		return fmt.Sprintf("%q is", schemes[0])
	}
	quoted := make([]string, len(schemes))
	for i, s := range schemes {
		quoted[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(quoted, ", ") + " are"
}
