package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"

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
	updates  scenario.UpdateRoutes
}

func connect(legacy bool) scenario.Connect {
	return func(ctx context.Context, link scenario.Link, h *scenario.Handlers) (scenario.Session, error) {
		s := &session{progress: scenario.NewProgressRoutes("go-sdk")}
		// The handlers declare sampling and elicitation; roots (with
		// listChanged) is go-sdk's default capability. The SDK answers a
		// request in the legacy era, and an input_required result's
		// questions in 2026-07-28 (its MultiRoundTrip middleware, on by
		// default), with the same handlers.
		client := mcp.NewClient(&mcp.Implementation{Name: "mcpwire-interop-go-sdk", Version: "0.1.0"}, &mcp.ClientOptions{
			ProgressNotificationHandler: s.onProgress,
			ResourceUpdatedHandler:      s.onUpdated,
			CreateMessageHandler:        createMessage(h),
			ElicitationHandler:          elicit(h),
		})
		for _, r := range scenario.ClientRoots() {
			client.AddRoots(&mcp.Root{URI: r.URI, Name: r.Name})
		}
		var opts *mcp.ClientSessionOptions
		if legacy {
			opts = &mcp.ClientSessionOptions{ProtocolVersion: legacyVersion}
		}
		var t mcp.Transport = &mcp.IOTransport{Reader: link.Stdout, Writer: link.Stdin}
		if link.URL != "" {
			// The SDK's defaults otherwise: a standalone SSE stream (GET)
			// in a legacy session, 5 reconnect attempts.
			t = &mcp.StreamableClientTransport{Endpoint: link.URL, HTTPClient: link.HTTPClient}
		}
		cs, err := client.Connect(ctx, t, opts)
		if err != nil {
			return nil, err
		}
		s.cs = cs
		return s, nil
	}
}

func createMessage(h *scenario.Handlers) func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		messages, err := json.Marshal(req.Params.Messages)
		if err != nil {
			return nil, err
		}
		text, model := h.Sample(messages)
		return &mcp.CreateMessageResult{Role: "assistant", Content: &mcp.TextContent{Text: text}, Model: model, StopReason: "endTurn"}, nil
	}
}

func elicit(h *scenario.Handlers) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		schema, err := json.Marshal(req.Params.RequestedSchema)
		if err != nil {
			return nil, err
		}
		action, content := h.Elicit(req.Params.Message, schema)
		return &mcp.ElicitResult{Action: action, Content: content}, nil
	}
}

func (s *session) onProgress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	p := req.Params
	s.progress.Deliver(p.ProgressToken, scenario.Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
}

func (s *session) onUpdated(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
	if req.Params != nil {
		s.updates.Deliver(req.Params.URI)
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

func (s *session) ListPage(ctx context.Context, kind scenario.Kind, cursor string) (scenario.ItemPage, error) {
	var items []scenario.Item
	var next string
	var err error
	switch kind {
	case scenario.Resources:
		var res *mcp.ListResourcesResult
		if res, err = s.cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor}); err == nil {
			items, err = scenario.ItemsOf(res.Resources, resourceKey)
			next = res.NextCursor
		}
	case scenario.ResourceTemplates:
		var res *mcp.ListResourceTemplatesResult
		if res, err = s.cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor}); err == nil {
			items, err = scenario.ItemsOf(res.ResourceTemplates, templateKey)
			next = res.NextCursor
		}
	case scenario.Prompts:
		var res *mcp.ListPromptsResult
		if res, err = s.cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor}); err == nil {
			items, err = scenario.ItemsOf(res.Prompts, promptKey)
			next = res.NextCursor
		}
	default:
		err = fmt.Errorf("no list %q", kind)
	}
	return scenario.ItemPage{Items: items, NextCursor: next}, err
}

func (s *session) ListAll(ctx context.Context, kind scenario.Kind) ([]scenario.Item, error) {
	switch kind {
	case scenario.Resources:
		return collect(s.cs.Resources(ctx, nil), resourceKey)
	case scenario.ResourceTemplates:
		return collect(s.cs.ResourceTemplates(ctx, nil), templateKey)
	case scenario.Prompts:
		return collect(s.cs.Prompts(ctx, nil), promptKey)
	}
	return nil, fmt.Errorf("no list %q", kind)
}

func resourceKey(r *mcp.Resource) string         { return r.URI }
func templateKey(t *mcp.ResourceTemplate) string { return t.URITemplate }
func promptKey(p *mcp.Prompt) string             { return p.Name }

// collect drains one of the SDK's list iterators.
func collect[T any](seq iter.Seq2[T, error], key func(T) string) ([]scenario.Item, error) {
	var all []T
	for it, err := range seq {
		if err != nil {
			return nil, err
		}
		all = append(all, it)
	}
	return scenario.ItemsOf(all, key)
}

func (s *session) ReadResource(ctx context.Context, uri string) ([]scenario.Contents, error) {
	res, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, err
	}
	return scenario.ContentsOf(res.Contents)
}

func (s *session) GetPrompt(ctx context.Context, name string, args map[string]string) ([]scenario.Message, error) {
	res, err := s.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return nil, err
	}
	return scenario.MessagesOf(res.Messages)
}

func (s *session) Complete(ctx context.Context, prompt, argument, value string) (*scenario.Completion, error) {
	res, err := s.cs.Complete(ctx, &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: prompt},
		Argument: mcp.CompleteParamsArgument{Name: argument, Value: value},
	})
	if err != nil {
		return nil, err
	}
	c := res.Completion
	return &scenario.Completion{Values: c.Values, Total: c.Total, HasMore: c.HasMore}, nil
}

// Subscribe uses the SDK's one API for both eras: Subscribe sends
// resources/subscribe in the legacy era and opens a subscriptions/listen
// stream for the URI in the modern one; Unsubscribe sends
// resources/unsubscribe or cancels that stream.
func (s *session) Subscribe(ctx context.Context, uri string, onUpdated func()) (func(context.Context) error, error) {
	s.updates.Set(uri, onUpdated)
	if err := s.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		return nil, err
	}
	return func(ctx context.Context) error {
		return s.cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri})
	}, nil
}

func (s *session) ErrorCode(err error) (int, bool) {
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		return int(werr.Code), true
	}
	return 0, false
}

func (s *session) Close() error { return s.cs.Close() }
