package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpwire/mcpwire/interop/go/internal/scenario"
)

// legacyVersion is the protocol version that forces the initialize handshake.
const legacyVersion = "2025-11-25"

// session adapts a go-sdk ClientSession to scenario.Session.
type session struct {
	cs       *mcp.ClientSession
	progress *scenario.ProgressRoutes
}

func connect(legacy bool) scenario.Connect {
	return func(ctx context.Context, stdin io.WriteCloser, stdout io.ReadCloser) (scenario.Session, error) {
		s := &session{progress: scenario.NewProgressRoutes("go-sdk")}
		client := mcp.NewClient(&mcp.Implementation{Name: "mcpwire-interop-go-sdk", Version: "0.1.0"}, &mcp.ClientOptions{
			ProgressNotificationHandler: s.onProgress,
		})
		var opts *mcp.ClientSessionOptions
		if legacy {
			opts = &mcp.ClientSessionOptions{ProtocolVersion: legacyVersion}
		}
		cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: stdout, Writer: stdin}, opts)
		if err != nil {
			return nil, err
		}
		s.cs = cs
		return s, nil
	}
}

func (s *session) onProgress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	p := req.Params
	s.progress.Deliver(p.ProgressToken, scenario.Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
}

func (s *session) ProtocolVersion() string {
	if res := s.cs.InitializeResult(); res != nil {
		return res.ProtocolVersion
	}
	return ""
}

func (s *session) ListToolsPage(ctx context.Context, cursor string) (scenario.Page, error) {
	res, err := s.cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
	if err != nil {
		return scenario.Page{}, err
	}
	tools, err := scenario.ToolsOf(res.Tools, toTool)
	if err != nil {
		return scenario.Page{}, err
	}
	return scenario.Page{Tools: tools, NextCursor: res.NextCursor}, nil
}

func (s *session) ListAllTools(ctx context.Context) ([]scenario.Tool, error) {
	var out []scenario.Tool
	for t, err := range s.cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		tool, err := toTool(t)
		if err != nil {
			return nil, err
		}
		out = append(out, tool)
	}
	return out, nil
}

func toTool(t *mcp.Tool) (scenario.Tool, error) {
	tool := scenario.Tool{Name: t.Name}
	if t.OutputSchema != nil {
		raw, err := json.Marshal(t.OutputSchema)
		if err != nil {
			return tool, err
		}
		tool.OutputSchema = raw
	}
	return tool, nil
}

func (s *session) CallTool(ctx context.Context, name string, args map[string]any, onProgress func(scenario.Progress)) (*scenario.Result, error) {
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	if onProgress != nil {
		params.SetProgressToken(s.progress.Add(onProgress))
	}
	res, err := s.cs.CallTool(ctx, params)
	if err != nil {
		return nil, err
	}
	return scenario.NewResult(res.Content, res.StructuredContent, res.IsError)
}

func (s *session) ErrorCode(err error) (int, bool) {
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		return int(werr.Code), true
	}
	return 0, false
}

func (s *session) Close() error { return s.cs.Close() }
