package mcp

import (
	"context"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// initializeResult is the legacy handshake's answer.
type initializeResult struct {
	ProtocolVersion string          `json:"protocolVersion"`
	Capabilities    map[string]any  `json:"capabilities"`
	ServerInfo      json.RawMessage `json:"serverInfo"`
	Instructions    string          `json:"instructions,omitempty"`
}

func handleInitialize(_ context.Context, ss *session, _ *call, r *request) (any, error) {
	var requested string
	pv := r.params.Get("protocolVersion")
	if pv == nil || pv[0] != '"' || json.Unmarshal(pv, &requested) != nil {
		return nil, invalidParams(`"protocolVersion" must be a string`)
	}
	caps, info := r.params.Get("capabilities"), r.params.Get("clientInfo")
	for _, f := range []struct {
		name string
		v    json.RawMessage
	}{{"capabilities", caps}, {"clientInfo", info}} {
		if f.v != nil && f.v[0] != '{' {
			return nil, invalidParams("%q must be an object", f.name)
		}
	}
	version := negotiate(requested)
	ss.mu.Lock()
	if ss.initialized {
		ss.mu.Unlock()
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "invalid request: the session is already initialized")
	}
	ss.initialized, ss.version, ss.rev = true, version, legacyRev(version)
	ss.clientCaps, ss.clientInfo = caps, info
	ss.mu.Unlock()
	rv := legacyRev(version)
	return initializeResult{
		ProtocolVersion: version,
		Capabilities:    ss.srv.capabilities(rv),
		ServerInfo:      ss.srv.serverInfo(rv),
		Instructions:    ss.srv.opts.Instructions,
	}, nil
}

func handlePing(context.Context, *session, *call, *request) (any, error) {
	return json.RawMessage("{}"), nil
}

// capabilities follow from what is registered: tools (with listChanged,
// since tools can be added and removed at run time) when any tool is
// registered, and logging always.
func (s *Server) capabilities(r rev) map[string]any {
	caps := map[string]any{"logging": map[string]any{}}
	if tools, _ := s.snapshot(); len(tools) > 0 || s.opts.DynamicTools {
		caps["tools"] = map[string]any{"listChanged": true}
	}
	return caps
}

// implementationWire is serverInfo on the wire.
type implementationWire struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	WebsiteURL  string `json:"websiteUrl,omitempty"`
	Icons       any    `json:"icons,omitempty"`
}

// serverInfo encodes the server's identity with the fields r defines.
func (s *Server) serverInfo(r rev) json.RawMessage {
	w := implementationWire{Name: s.info.Name, Version: s.info.Version}
	if r.hasTitles() {
		w.Title = s.info.Title
	}
	if r.hasIcons() {
		w.Description, w.WebsiteURL = s.info.Description, s.info.WebsiteURL
		if len(s.info.Icons) > 0 {
			w.Icons = s.info.Icons
		}
	}
	b, _ := json.Marshal(w)
	return b
}
