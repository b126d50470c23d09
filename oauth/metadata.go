package oauth

import (
	"net/http"
	"strconv"
	"strings"
)

// MetadataHandler serves the Protected Resource Metadata document (RFC
// 9728 §3.2) at whatever path it is mounted: resource,
// authorization_servers, scopes_supported, bearer_methods_supported
// (["header"], the one way this resource reads a token) and the optional
// fields of Options, as application/json.
//
// The document is public and the same for everyone: it needs no token,
// may be cached (Cache-Control: public, max-age from
// Options.MetadataMaxAge), and may be read from any origin
// (Access-Control-Allow-Origin: *), so that browser-based clients can
// discover the authorization server. GET and HEAD get it; OPTIONS gets a
// CORS preflight answer (204); any other method gets 405 with Allow.
func (rs *ResourceServer) MetadataHandler() http.Handler {
	cache := "public, max-age=" + strconv.Itoa(int(rs.c.maxAge.Seconds()))
	length := strconv.Itoa(len(rs.c.doc))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			h.Set("Content-Type", "application/json")
			h.Set("Cache-Control", cache)
			h.Set("Content-Length", length)
			w.WriteHeader(http.StatusOK)
			if r.Method == http.MethodGet {
				w.Write(rs.c.doc)
			}
		case http.MethodOptions:
			h.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
			// MCP clients send their protocol version with every request,
			// this one included.
			h.Set("Access-Control-Allow-Headers", "MCP-Protocol-Version")
			h.Set("Access-Control-Max-Age", "86400")
			w.WriteHeader(http.StatusNoContent)
		default:
			h.Set("Allow", "GET, HEAD, OPTIONS")
			writeBody(w, http.StatusMethodNotAllowed, "method_not_allowed", "the metadata document is read with GET")
		}
	})
}

// MetadataPaths returns the paths the metadata document is served at by
// Mount: WellKnownPath with the resource's path appended (the URL
// MetadataURL names, which clients try first) and WellKnownPath itself
// (which clients try next); one path when the resource has none.
func (rs *ResourceServer) MetadataPaths() []string {
	if rs.c.metadataPath == WellKnownPath {
		return []string{WellKnownPath}
	}
	return []string{rs.c.metadataPath, WellKnownPath}
}

// EndpointPath returns the path of the protected endpoint, from
// Options.Resource ("/" when it has none).
func (rs *ResourceServer) EndpointPath() string { return rs.c.endpointPath }

// Mount registers on mux the protected endpoint at its path (Protect(endpoint),
// matching that path exactly) and the metadata document at each of
// MetadataPaths. It panics, as http.ServeMux.Handle does, when one of
// those patterns is taken. Mounting the endpoint where the resource's URL
// says it is matters: the well-known paths are derived from it.
//
//	rs, err := oauth.NewResourceServer(verifier, oauth.Options{Resource: "https://mcp.example.com/mcp", ...})
//	mux := http.NewServeMux()
//	rs.Mount(mux, mcphttp.NewHandler(srv, nil))
func (rs *ResourceServer) Mount(mux *http.ServeMux, endpoint http.Handler) {
	pattern := rs.c.endpointPath
	if strings.HasSuffix(pattern, "/") {
		pattern += "{$}" // the path itself, not the subtree under it
	}
	mux.Handle(pattern, rs.Protect(endpoint))
	md := rs.MetadataHandler()
	for _, p := range rs.MetadataPaths() {
		mux.Handle(p, md)
	}
}
