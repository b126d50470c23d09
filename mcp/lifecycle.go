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

func handleInitialize(_ context.Context, ss *session, _ *call, params json.RawMessage) (any, error) {
	f, err := jsonrpc.Fields(params, "protocolVersion", "capabilities", "clientInfo")
	if err != nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "invalid params: initialize needs a params object")
	}
	var requested string
	if f[0] == nil || f[0][0] != '"' || json.Unmarshal(f[0], &requested) != nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, `invalid params: "protocolVersion" must be a string`)
	}
	for i, name := range []string{"capabilities", "clientInfo"} {
		if v := f[i+1]; v != nil && v[0] != '{' {
			return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "invalid params: %q must be an object", name)
		}
	}
	version := negotiate(requested)
	ss.mu.Lock()
	if ss.initialized {
		ss.mu.Unlock()
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "invalid request: the session is already initialized")
	}
	ss.initialized, ss.version, ss.rev = true, version, revOf(version)
	ss.clientCaps, ss.clientInfo = f[1], f[2]
	ss.mu.Unlock()
	r := revOf(version)
	return initializeResult{
		ProtocolVersion: version,
		Capabilities:    ss.srv.capabilities(),
		ServerInfo:      ss.srv.serverInfo(r),
		Instructions:    ss.srv.opts.Instructions,
	}, nil
}

func handlePing(context.Context, *session, *call, json.RawMessage) (any, error) {
	return json.RawMessage("{}"), nil
}

// capabilities follow from what is registered.
func (s *Server) capabilities() map[string]any {
	caps := map[string]any{}
	if tools, _ := s.snapshot(); len(tools) > 0 {
		caps["tools"] = map[string]any{"listChanged": false}
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
