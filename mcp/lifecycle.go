package mcp

import (
	"context"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/feature"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

func handleInitialize(_ context.Context, ss *session, _ *call, r *request, p *protocol.InitializeRequestParams) (any, error) {
	requested := p.ProtocolVersion
	if requested == "" {
		return nil, invalidParams(`"protocolVersion" must be a string`)
	}
	caps, info := p.Capabilities, p.ClientInfo
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
	rv := legacyRev(version)
	declared := ss.srv.capabilities(rv)
	ss.initialized, ss.version, ss.rev = true, version, rv
	ss.clientCaps, ss.clientInfo, ss.caps, ss.caller = caps, info, declared, r.caller
	ss.mu.Unlock()
	return encodeInitialize(&protocol.InitializeResult{
		ProtocolVersion: version,
		Capabilities:    declared,
		ServerInfo:      ss.srv.serverInfo(rv),
		Instructions:    ss.srv.opts.Instructions,
	})
}

func handlePing(context.Context, *session, *call, *request) (any, error) {
	return json.RawMessage("{}"), nil
}

// capabilities follow from what is registered: tools (with listChanged,
// since tools can be added and removed at run time) when any tool is
// registered, resources (with subscribe and listChanged) when any resource
// or template is, prompts (with listChanged) when any prompt is,
// completions when a prompt or a template has a completion provider (from
// 2025-03-26 on: 2024-11-05 has completion/complete but no capability for
// it), and logging always.
func (s *Server) capabilities(r protocol.Revision) protocol.ServerCapabilities {
	caps := protocol.ServerCapabilities{Logging: protocol.Object{}}
	yes := true
	if tools, _ := toolList.snapshot(s); len(tools) > 0 || s.opts.DynamicTools {
		caps.Tools = &protocol.ToolsCapability{ListChanged: &yes}
	}
	if capResources(s) {
		caps.Resources = &protocol.ResourcesCapability{Subscribe: &yes, ListChanged: &yes}
	}
	if capPrompts(s) {
		caps.Prompts = &protocol.PromptsCapability{ListChanged: &yes}
	}
	if capCompletions(s) && feature.Completions(r) {
		caps.Completions = protocol.Object{}
	}
	if r.Modern() && s.hasTaskTools() {
		caps.Extensions = map[string]protocol.Object{TasksExtension: {}}
	}
	s.ext.advertise(&caps, r)
	return caps
}

// serverInfo is the server's identity with the fields r defines.
func (s *Server) serverInfo(r protocol.Revision) protocol.Implementation {
	info := protocol.Implementation{Name: s.info.Name, Version: s.info.Version}
	if feature.Titles(r) {
		info.Title = s.info.Title
	}
	if feature.Icons(r) {
		info.Description, info.WebsiteURL, info.Icons = s.info.Description, s.info.WebsiteURL, s.info.Icons
	}
	return info
}
