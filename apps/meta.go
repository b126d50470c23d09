package apps

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// ExtensionID is the MCP Apps extension's identifier, the key of its
// capability in capabilities.extensions.
const ExtensionID = "io.modelcontextprotocol/ui"

// MIMEType is the MIME type of an app's UI resource: an HTML5 document
// written for the extension's postMessage protocol.
const MIMEType = "text/html;profile=mcp-app"

// ProtocolVersion is the version of the postMessage protocol between a
// view and its host (ui/initialize), which is not the MCP revision.
const ProtocolVersion = "2026-01-26"

// scheme is the URI scheme of UI resources, which the extension reserves.
const scheme = "ui://"

// legacyResourceURIKey is the flat _meta key older hosts read a tool's UI
// resource from; the extension deprecates it, and hosts read both.
const legacyResourceURIKey = "ui/resourceUri"

// Visibility says who may call a tool linked to an app.
type Visibility string

// The two audiences a tool's _meta.ui.visibility names. A tool that names
// none is visible to both.
const (
	// VisibleToModel: the host lists the tool to its model (the agent).
	VisibleToModel Visibility = "model"
	// VisibleToApp: the app of the tool's own server may call it.
	VisibleToApp Visibility = "app"
)

// CSP is the network an app's view needs, as origins per kind; the host
// turns it into the view's Content-Security-Policy ([CSP.Policy]) and
// blocks every origin it does not name. An origin is a scheme, a host and
// an optional port, such as "https://api.example.com" or
// "https://*.example.com" (a wildcard for subdomains).
type CSP struct {
	// ConnectDomains may be reached by fetch, XHR and WebSocket
	// (connect-src); none means no network connection at all.
	ConnectDomains []string `json:"connectDomains,omitempty"`
	// ResourceDomains may serve scripts, styles, images, fonts and media.
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	// FrameDomains may be nested in frames (frame-src 'none' otherwise).
	FrameDomains []string `json:"frameDomains,omitempty"`
	// BaseURIDomains may be the document's base URI (base-uri 'self'
	// otherwise).
	BaseURIDomains []string `json:"baseUriDomains,omitempty"`
}

// Permissions are the browser features an app asks for; a host may grant
// them (the iframe's allow attribute, see [Permissions.Allow]) and an
// app must still detect what it got. On the wire each granted feature is
// an empty object.
type Permissions struct {
	Camera         bool
	Microphone     bool
	Geolocation    bool
	ClipboardWrite bool
}

// permissionNames are the features in the order the wire and the allow
// attribute give them: the member name, then the Permissions Policy name.
var permissionNames = [...][2]string{
	{"camera", "camera"}, {"microphone", "microphone"},
	{"geolocation", "geolocation"}, {"clipboardWrite", "clipboard-write"},
}

func (p *Permissions) flags() [4]*bool {
	return [4]*bool{&p.Camera, &p.Microphone, &p.Geolocation, &p.ClipboardWrite}
}

// MarshalJSON encodes each requested feature as an empty object.
func (p Permissions) MarshalJSON() ([]byte, error) {
	buf := []byte{'{'}
	for i, on := range p.flags() {
		if !*on {
			continue
		}
		if len(buf) > 1 {
			buf = append(buf, ',')
		}
		buf = append(buf, `"`+permissionNames[i][0]+`":{}`...)
	}
	return append(buf, '}'), nil
}

// UnmarshalJSON reads the features a peer asks for: a member whose value
// is an object. Unknown features are ignored, as a later revision may add
// some.
func (p *Permissions) UnmarshalJSON(data []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("apps: permissions: %w", err)
	}
	*p = Permissions{}
	for i, on := range p.flags() {
		v := bytes.TrimSpace(m[permissionNames[i][0]])
		*on = len(v) > 0 && v[0] == '{'
	}
	return nil
}

// Allow returns the iframe allow attribute granting the features, such as
// "camera; clipboard-write"; "" for none.
func (p Permissions) Allow() string {
	var parts []string
	for i, on := range p.flags() {
		if *on {
			parts = append(parts, permissionNames[i][1])
		}
	}
	return strings.Join(parts, "; ")
}

// ResourceMeta is a UI resource's _meta.ui: how its host sandboxes and
// shows the view. A server puts it on the contents of resources/read and
// on the resources/list entry; a host prefers the contents'.
type ResourceMeta struct {
	// CSP are the origins the view needs; nil gets the host's restrictive
	// default (no network, inline and same-origin scripts and styles).
	CSP *CSP `json:"csp,omitempty"`
	// Permissions are the browser features the view asks for.
	Permissions *Permissions `json:"permissions,omitempty"`
	// Domain asks for a dedicated origin for the view; its form depends on
	// the host.
	Domain string `json:"domain,omitempty"`
	// PrefersBorder asks for a visible border and background (true), none
	// (false), or leaves it to the host (nil). Setting it is recommended:
	// hosts' defaults differ.
	PrefersBorder *bool `json:"prefersBorder,omitempty"`
}

// check reports the first origin of m's CSP that is not one.
func (m ResourceMeta) check() error {
	if m.CSP == nil {
		return nil
	}
	for _, list := range [][]string{m.CSP.ConnectDomains, m.CSP.ResourceDomains, m.CSP.FrameDomains, m.CSP.BaseURIDomains} {
		for _, d := range list {
			if err := checkOrigin(d); err != nil {
				return err
			}
		}
	}
	return nil
}

// ToolMeta is a tool's _meta.ui: the UI resource that renders its results
// and who may call it.
type ToolMeta struct {
	// ResourceURI is the ui:// resource of the tool's view.
	ResourceURI string `json:"resourceUri,omitempty"`
	// Visibility names who may call the tool; empty means both the model
	// and the app.
	Visibility []Visibility `json:"visibility,omitempty"`
}

// Visible reports whether v may call the tool.
func (m ToolMeta) Visible(v Visibility) bool {
	return len(m.Visibility) == 0 || slices.Contains(m.Visibility, v)
}

// errNotOrigin is what checkOrigin reports, wrapped with the entry.
var errNotOrigin = errors.New("not an origin")

// checkOrigin accepts what a CSP source list may hold for an origin: a
// scheme (http, https, ws or wss), "://", a host (letters, digits, '-'
// and '.', optionally led by "*." or an IPv6 literal in brackets), and an
// optional port; nothing that could end the directive or add another
// (no ';', ',', quote or white space).
func checkOrigin(s string) error {
	fail := func() error { return fmt.Errorf("apps: CSP entry %s: %w", clip.Quote(s), errNotOrigin) }
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || !slices.Contains([]string{"http", "https", "ws", "wss"}, scheme) {
		return fail()
	}
	host, port := rest, ""
	if strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return fail()
		}
		for _, c := range rest[1:end] {
			if !(c == ':' || c == '.' || isAlnum(c)) {
				return fail()
			}
		}
		host, port = rest[:end+1], strings.TrimPrefix(rest[end+1:], ":")
		if port == "" && len(rest) > end+1 {
			return fail()
		}
	} else {
		if i := strings.LastIndexByte(rest, ':'); i >= 0 {
			host, port = rest[:i], rest[i+1:]
			if port == "" {
				return fail()
			}
		}
		labels := strings.TrimPrefix(host, "*.")
		if labels == "" {
			return fail()
		}
		for _, label := range strings.Split(labels, ".") {
			if label == "" {
				return fail()
			}
			for _, c := range label {
				if !(c == '-' || isAlnum(c)) {
					return fail()
				}
			}
		}
	}
	if port != "" && port != "*" {
		if len(port) > 5 {
			return fail()
		}
		for _, c := range port {
			if c < '0' || c > '9' {
				return fail()
			}
		}
	}
	return nil
}

func isAlnum(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
