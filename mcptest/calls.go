package mcptest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// Result is the result of a tool call.
type Result struct {
	// Content holds the content blocks.
	Content []protocol.ContentBlock
	// StructuredContent is the structured result as sent; nil when
	// absent.
	StructuredContent json.RawMessage
	// IsError reports that the tool failed.
	IsError bool
}

// Text returns the text of the text blocks, joined by newlines.
func (r *Result) Text() string {
	var texts []string
	for _, b := range r.Content {
		if b.Text != nil {
			texts = append(texts, b.Text.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// Decode decodes the structured result into v; it fails when there is
// none.
func (r *Result) Decode(v any) error {
	if r.StructuredContent == nil {
		return errors.New("mcptest: the result has no structured content")
	}
	return json.Unmarshal(r.StructuredContent, v)
}

// CallTool calls the tool name with args (nil for none; a
// json.RawMessage is sent as it is, any other value encoded as JSON). A
// tool that failed is a Result with IsError; an error is the call itself
// failing, such as -32602 for an unknown tool.
func (c *Client) CallTool(ctx context.Context, name string, args any) (*Result, error) {
	return c.callTool(ctx, name, args, nil)
}

// progressTokens numbers the progress tokens of CallToolProgress.
var progressTokens atomic.Int64

// CallToolProgress is CallTool asking for progress (the specification's
// Progress section): the request carries a progressToken of its own, and
// f gets every notifications/progress the server sends with it until the
// call returns, on the client's reading goroutine; f must not block or
// call the client.
func (c *Client) CallToolProgress(ctx context.Context, name string, args any, f func(protocol.ProgressNotificationParams)) (*Result, error) {
	token := json.RawMessage(fmt.Sprintf(`"mcptest-%d"`, progressTokens.Add(1)))
	defer c.session.WatchProgress(token, f)()
	return c.callTool(ctx, name, args, map[string]any{"progressToken": token})
}

// callTool calls the tool name with args and the request's _meta (nil for
// none).
func (c *Client) callTool(ctx context.Context, name string, args any, meta map[string]any) (*Result, error) {
	params := map[string]any{"name": name}
	if args != nil {
		params["arguments"] = args
	}
	if meta != nil {
		params["_meta"] = meta
	}
	r, err := call[protocol.CallToolResult](ctx, c, protocol.MethodCallTool, params)
	if err != nil {
		return nil, err
	}
	return &Result{Content: r.Content, StructuredContent: r.StructuredContent, IsError: r.IsError != nil && *r.IsError}, nil
}

// ReadResource reads the resource at uri.
func (c *Client) ReadResource(ctx context.Context, uri string) (*protocol.ReadResourceResult, error) {
	return call[protocol.ReadResourceResult](ctx, c, protocol.MethodReadResource, map[string]any{"uri": uri})
}

// GetPrompt gets the prompt name filled in with args (nil for none).
func (c *Client) GetPrompt(ctx context.Context, name string, args map[string]string) (*protocol.GetPromptResult, error) {
	params := map[string]any{"name": name}
	if args != nil {
		params["arguments"] = args
	}
	return call[protocol.GetPromptResult](ctx, c, protocol.MethodGetPrompt, params)
}

// SetLogLevel asks the server for log messages at level and more severe,
// which OnLog receives: logging/setLevel in the legacy era; in the
// 2026-07-28 era every later request carries level in its _meta.
func (c *Client) SetLogLevel(ctx context.Context, level protocol.LoggingLevel) error {
	return c.session.SetLogLevel(ctx, level)
}

// Complete asks completion/complete for the values that complete value
// for the argument named argument of ref, a prompt
// (protocol.CompletionReference{Prompt: &protocol.PromptReference{Name: …}})
// or a resource template (the specification's Completion section).
func (c *Client) Complete(ctx context.Context, ref protocol.CompletionReference, argument, value string) ([]string, error) {
	r, err := c.session.Complete(ctx, ref, argument, value)
	if err != nil {
		return nil, err
	}
	return r.Values, nil
}

// ListTools lists every tool, page after page until the server gives no
// nextCursor (an empty cursor is followed like any other).
func (c *Client) ListTools(ctx context.Context) ([]protocol.Tool, error) {
	return list(ctx, c, protocol.MethodListTools, func(r *protocol.ListToolsResult) []protocol.Tool { return r.Tools })
}

// ListResources lists every resource, following nextCursor as ListTools
// does.
func (c *Client) ListResources(ctx context.Context) ([]protocol.Resource, error) {
	return list(ctx, c, protocol.MethodListResources, func(r *protocol.ListResourcesResult) []protocol.Resource { return r.Resources })
}

// ListResourceTemplates lists every resource template, following
// nextCursor as ListTools does.
func (c *Client) ListResourceTemplates(ctx context.Context) ([]protocol.ResourceTemplate, error) {
	return list(ctx, c, protocol.MethodListResourceTemplates, func(r *protocol.ListResourceTemplatesResult) []protocol.ResourceTemplate {
		return r.ResourceTemplates
	})
}

// ListPrompts lists every prompt, following nextCursor as ListTools does.
func (c *Client) ListPrompts(ctx context.Context) ([]protocol.Prompt, error) {
	return list(ctx, c, protocol.MethodListPrompts, func(r *protocol.ListPromptsResult) []protocol.Prompt { return r.Prompts })
}

// call sends one request and decodes its result into an R.
func call[R any](ctx context.Context, c *Client, method string, params any) (*R, error) {
	raw, err := c.Call(ctx, method, params)
	if err != nil {
		return nil, err
	}
	var r R
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("mcptest: the %s result: %w", method, err)
	}
	return &r, nil
}

// list fetches every page of a list and gathers its items.
func list[R, T any](ctx context.Context, c *Client, method string, items func(*R) []T) ([]T, error) {
	pages, err := c.session.ListPages(ctx, method)
	if err != nil {
		return nil, err
	}
	var all []T
	for i, raw := range pages {
		var page R
		if err := json.Unmarshal(raw, &page); err != nil {
			return nil, fmt.Errorf("mcptest: %s, page %d: %w", method, i+1, err)
		}
		all = append(all, items(&page)...)
	}
	return all, nil
}
