package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpwire/mcpwire/interop/go/internal/scenario"
)

// session adapts an mcp-go Client to scenario.Session.
type session struct {
	c        *client.Client
	progress *scenario.ProgressRoutes
}

func connect(legacy bool) scenario.Connect {
	return func(ctx context.Context, stdin io.WriteCloser, stdout io.ReadCloser) (scenario.Session, error) {
		s := &session{progress: scenario.NewProgressRoutes("mcp-go")}
		var opts []client.ClientOption
		if legacy {
			opts = append(opts, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
		}
		c := client.NewClient(transport.NewIO(stdout, stdin, nil), opts...)
		c.OnNotification(s.onNotification)
		if err := c.Start(ctx); err != nil {
			return nil, err
		}
		var req mcp.InitializeRequest
		req.Params.ClientInfo = mcp.Implementation{Name: "mcpwire-interop-mcp-go", Version: "0.1.0"}
		if _, err := c.Initialize(ctx, req); err != nil {
			_ = c.Close()
			return nil, err
		}
		s.c = c
		return s, nil
	}
}

func (s *session) onNotification(n mcp.JSONRPCNotification) {
	if n.Method != string(mcp.MethodNotificationProgress) {
		return
	}
	f := n.Params.AdditionalFields
	p := scenario.Progress{}
	p.Progress, _ = f["progress"].(float64)
	p.Total, _ = f["total"].(float64)
	p.Message, _ = f["message"].(string)
	s.progress.Deliver(f["progressToken"], p)
}

func (s *session) ProtocolVersion() string { return s.c.ProtocolVersion() }

func (s *session) ListToolsPage(ctx context.Context, cursor string) (scenario.Page, error) {
	var req mcp.ListToolsRequest
	req.Params.Cursor = mcp.Cursor(cursor)
	res, err := s.c.ListToolsByPage(ctx, req)
	if err != nil {
		return scenario.Page{}, err
	}
	tools, err := scenario.ToolsOf(res.Tools, toTool)
	if err != nil {
		return scenario.Page{}, err
	}
	return scenario.Page{Tools: tools, NextCursor: string(res.NextCursor)}, nil
}

func (s *session) ListAllTools(ctx context.Context) ([]scenario.Tool, error) {
	res, err := s.c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return nil, err
	}
	return scenario.ToolsOf(res.Tools, toTool)
}

func toTool(t mcp.Tool) (scenario.Tool, error) {
	tool := scenario.Tool{Name: t.Name}
	switch {
	case t.RawOutputSchema != nil:
		tool.OutputSchema = t.RawOutputSchema
	case t.OutputSchema.Type != "":
		raw, err := json.Marshal(t.OutputSchema)
		if err != nil {
			return tool, err
		}
		tool.OutputSchema = raw
	}
	return tool, nil
}

func (s *session) CallTool(ctx context.Context, name string, args map[string]any, onProgress func(scenario.Progress)) (*scenario.Result, error) {
	var req mcp.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	if onProgress != nil {
		req.Params.Meta = &mcp.Meta{ProgressToken: s.progress.Add(onProgress)}
	}
	res, err := s.c.CallTool(ctx, req)
	if err != nil {
		return nil, err
	}
	var structured any
	if res.RawStructuredContent != nil {
		structured = res.RawStructuredContent
	} else if res.StructuredContent != nil {
		structured = res.StructuredContent
	}
	return scenario.NewResult(res.Content, structured, res.IsError)
}

// sentinels maps the SDK's sentinel errors, the only form in which it
// surfaces a JSON-RPC error code, back to the codes.
var sentinels = map[error]int{
	mcp.ErrParseError:         mcp.PARSE_ERROR,
	mcp.ErrInvalidRequest:     mcp.INVALID_REQUEST,
	mcp.ErrMethodNotFound:     mcp.METHOD_NOT_FOUND,
	mcp.ErrInvalidParams:      mcp.INVALID_PARAMS,
	mcp.ErrInternalError:      mcp.INTERNAL_ERROR,
	mcp.ErrRequestInterrupted: mcp.REQUEST_INTERRUPTED,
	mcp.ErrResourceNotFound:   mcp.RESOURCE_NOT_FOUND,
}

func (s *session) ErrorCode(err error) (int, bool) {
	for sentinel, code := range sentinels {
		if errors.Is(err, sentinel) {
			return code, true
		}
	}
	var unsupported mcp.UnsupportedProtocolVersionError
	if errors.As(err, &unsupported) {
		return mcp.UNSUPPORTED_PROTOCOL_VERSION, true
	}
	return 0, false
}

func (s *session) Close() error { return s.c.Close() }
