package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpwire/mcpwire/interop/go/internal/scenario"
)

// legacyVersion is the protocol version that forces the initialize handshake.
const legacyVersion = "2025-11-25"

// session adapts a go-sdk ClientSession to scenario.Session.
type session struct {
	cs *mcp.ClientSession

	mu       sync.Mutex
	progress map[string]func(scenario.Progress) // by progress token
	tokens   atomic.Int64
}

func connect(legacy bool) scenario.Connect {
	return func(ctx context.Context, stdin io.WriteCloser, stdout io.ReadCloser) (scenario.Session, error) {
		s := &session{progress: map[string]func(scenario.Progress){}}
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
	s.mu.Lock()
	f := s.progress[fmt.Sprint(req.Params.ProgressToken)]
	s.mu.Unlock()
	if f != nil {
		f(scenario.Progress{Progress: req.Params.Progress, Total: req.Params.Total, Message: req.Params.Message})
	}
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
	page := scenario.Page{NextCursor: res.NextCursor}
	for _, t := range res.Tools {
		tool, err := toTool(t)
		if err != nil {
			return scenario.Page{}, err
		}
		page.Tools = append(page.Tools, tool)
	}
	return page, nil
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
		token := fmt.Sprintf("go-sdk-%d", s.tokens.Add(1))
		params.SetProgressToken(token)
		// The token stays registered after the call returns: the SDK may run
		// the handler for a notification that preceded the result on the
		// wire only after CallTool has returned.
		s.mu.Lock()
		s.progress[token] = onProgress
		s.mu.Unlock()
	}
	res, err := s.cs.CallTool(ctx, params)
	if err != nil {
		return nil, err
	}
	content := make([]any, len(res.Content))
	for i, c := range res.Content {
		content[i] = c
	}
	return scenario.NewResult(content, res.StructuredContent, res.IsError)
}

func (s *session) ErrorCode(err error) (int, bool) {
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		return int(werr.Code), true
	}
	return 0, false
}

func (s *session) Close() error { return s.cs.Close() }
