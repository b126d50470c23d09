package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpwire/mcpwire/interop/go/internal/scenario"
)

// session adapts an mcp-go Client to scenario.Session.
type session struct {
	c        *client.Client
	progress *scenario.ProgressRoutes
	updates  scenario.UpdateRoutes
}

func connect(legacy bool) scenario.Connect {
	return func(ctx context.Context, link scenario.Link, h *scenario.Handlers) (scenario.Session, error) {
		s := &session{progress: scenario.NewProgressRoutes("mcp-go")}
		// Each handler declares its capability. The SDK answers a request
		// in the legacy era, and an input_required result's questions in
		// 2026-07-28 (its multi round-trip loop in CallTool), with them.
		a := answerer{h}
		opts := []client.ClientOption{client.WithSamplingHandler(a), client.WithElicitationHandler(a), client.WithRootsHandler(a)}
		if legacy {
			opts = append(opts, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
		}
		var t transport.Interface = transport.NewIO(link.Stdout, link.Stdin, nil)
		if link.URL != "" {
			// In the legacy era, WithContinuousListening opens the GET
			// stream that a session's notifications (resources/updated)
			// come on; without it mcp-go reads only the answers to its
			// POSTs. It also rules out 2026-07-28 (which has no such
			// stream: RequiresLegacyProtocol), so the default mode goes
			// without it.
			httpOpts := []transport.StreamableHTTPCOption{transport.WithHTTPBasicClient(link.HTTPClient)}
			if legacy {
				httpOpts = append(httpOpts, transport.WithContinuousListening())
			}
			var err error
			if t, err = transport.NewStreamableHTTP(link.URL, httpOpts...); err != nil {
				return nil, err
			}
		}
		c := client.NewClient(t, opts...)
		c.OnNotification(s.onNotification)
		// The stdio transport runs every request from the server with the
		// context Start was given, for as long as the connection lives: a
		// context that ends with the connect step would have it answer
		// each later sampling, elicitation or roots request with -32603
		// "context canceled".
		if err := c.Start(context.WithoutCancel(ctx)); err != nil {
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

// answerer is the client's sampling, elicitation and roots handler.
type answerer struct{ h *scenario.Handlers }

func (a answerer) CreateMessage(_ context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	messages, err := json.Marshal(req.Messages)
	if err != nil {
		return nil, err
	}
	text, model := a.h.Sample(messages)
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent(text)},
		Model:           model,
		StopReason:      "endTurn",
	}, nil
}

func (a answerer) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	schema, err := json.Marshal(req.Params.RequestedSchema)
	if err != nil {
		return nil, err
	}
	action, content := a.h.Elicit(req.Params.Message, schema)
	res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseAction(action)}}
	if content != nil {
		res.Content = content
	}
	return res, nil
}

func (a answerer) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	var roots []mcp.Root
	for _, r := range a.h.Roots() {
		roots = append(roots, mcp.Root{URI: r.URI, Name: r.Name})
	}
	return &mcp.ListRootsResult{Roots: roots}, nil
}

func (s *session) onNotification(n mcp.JSONRPCNotification) {
	f := n.Params.AdditionalFields
	if n.Method == string(mcp.MethodNotificationResourceUpdated) {
		uri, _ := f["uri"].(string)
		s.updates.Deliver(uri)
		return
	}
	if n.Method != string(mcp.MethodNotificationProgress) {
		return
	}
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

func (s *session) ListPage(ctx context.Context, kind scenario.Kind, cursor string) (scenario.ItemPage, error) {
	var page mcp.PaginatedRequest
	page.Params.Cursor = mcp.Cursor(cursor)
	switch kind {
	case scenario.Resources:
		res, err := s.c.ListResourcesByPage(ctx, mcp.ListResourcesRequest{PaginatedRequest: page})
		if err != nil {
			return scenario.ItemPage{}, err
		}
		items, err := scenario.ItemsOf(res.Resources, resourceKey)
		return scenario.ItemPage{Items: items, NextCursor: string(res.NextCursor)}, err
	case scenario.ResourceTemplates:
		res, err := s.c.ListResourceTemplatesByPage(ctx, mcp.ListResourceTemplatesRequest{PaginatedRequest: page})
		if err != nil {
			return scenario.ItemPage{}, err
		}
		items, err := scenario.ItemsOf(res.ResourceTemplates, templateKey)
		return scenario.ItemPage{Items: items, NextCursor: string(res.NextCursor)}, err
	case scenario.Prompts:
		res, err := s.c.ListPromptsByPage(ctx, mcp.ListPromptsRequest{PaginatedRequest: page})
		if err != nil {
			return scenario.ItemPage{}, err
		}
		items, err := scenario.ItemsOf(res.Prompts, promptKey)
		return scenario.ItemPage{Items: items, NextCursor: string(res.NextCursor)}, err
	}
	return scenario.ItemPage{}, fmt.Errorf("no list %q", kind)
}

func (s *session) ListAll(ctx context.Context, kind scenario.Kind) ([]scenario.Item, error) {
	switch kind {
	case scenario.Resources:
		res, err := s.c.ListResources(ctx, mcp.ListResourcesRequest{})
		if err != nil {
			return nil, err
		}
		return scenario.ItemsOf(res.Resources, resourceKey)
	case scenario.ResourceTemplates:
		res, err := s.c.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
		if err != nil {
			return nil, err
		}
		return scenario.ItemsOf(res.ResourceTemplates, templateKey)
	case scenario.Prompts:
		res, err := s.c.ListPrompts(ctx, mcp.ListPromptsRequest{})
		if err != nil {
			return nil, err
		}
		return scenario.ItemsOf(res.Prompts, promptKey)
	}
	return nil, fmt.Errorf("no list %q", kind)
}

func resourceKey(r mcp.Resource) string { return r.URI }
func templateKey(t mcp.ResourceTemplate) string {
	if t.URITemplate == nil || t.URITemplate.Template == nil {
		return ""
	}
	return t.URITemplate.Raw()
}
func promptKey(p mcp.Prompt) string { return p.Name }

func (s *session) ReadResource(ctx context.Context, uri string) ([]scenario.Contents, error) {
	var req mcp.ReadResourceRequest
	req.Params.URI = uri
	res, err := s.c.ReadResource(ctx, req)
	if err != nil {
		return nil, err
	}
	return scenario.ContentsOf(res.Contents)
}

func (s *session) GetPrompt(ctx context.Context, name string, args map[string]string) ([]scenario.Message, error) {
	var req mcp.GetPromptRequest
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := s.c.GetPrompt(ctx, req)
	if err != nil {
		return nil, err
	}
	return scenario.MessagesOf(res.Messages)
}

func (s *session) Complete(ctx context.Context, prompt, argument, value string) (*scenario.Completion, error) {
	var req mcp.CompleteRequest
	req.Params.Ref = mcp.PromptReference{Type: "ref/prompt", Name: prompt}
	req.Params.Argument = mcp.CompleteArgument{Name: argument, Value: value}
	res, err := s.c.Complete(ctx, req)
	if err != nil {
		return nil, err
	}
	c := res.Completion
	return &scenario.Completion{Values: c.Values, Total: c.Total, HasMore: c.HasMore}, nil
}

// Subscribe sends resources/subscribe in the legacy era. In the modern one
// the SDK's Subscribe only records the URI for a later Listen, so this
// opens the stream itself with ListenAsync and a filter naming the URI;
// unsubscribing stops it, which cancels the listen request.
func (s *session) Subscribe(ctx context.Context, uri string, onUpdated func()) (func(context.Context) error, error) {
	s.updates.Set(uri, onUpdated)
	if !mcp.IsModernProtocol(s.c.ProtocolVersion()) {
		var req mcp.SubscribeRequest
		req.Params.URI = uri
		if err := s.c.Subscribe(ctx, req); err != nil {
			return nil, err
		}
		return func(ctx context.Context) error {
			var req mcp.UnsubscribeRequest
			req.Params.URI = uri
			return s.c.Unsubscribe(ctx, req)
		}, nil
	}
	var listenErr error
	var mu sync.Mutex
	stop, err := s.c.ListenAsync(context.WithoutCancel(ctx), mcp.SubscriptionFilter{ResourceSubscriptions: []string{uri}}, func(err error) {
		mu.Lock()
		listenErr = err
		mu.Unlock()
	})
	if err != nil {
		return nil, err
	}
	return func(context.Context) error {
		stop()
		mu.Lock()
		defer mu.Unlock()
		if listenErr != nil {
			return fmt.Errorf("the listen stream failed: %w", listenErr)
		}
		return nil
	}, nil
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
