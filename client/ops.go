package client

import (
	"context"

	"github.com/mcpwire/mcpwire/protocol"
)

// ReadResource reads the resource at uri. On 2026-07-28 a result the
// server marks cacheable is kept for its ttlMs and dropped when the server
// says the resource changed.
func (c *Client) ReadResource(ctx context.Context, uri string) (*protocol.ReadResourceResult, error) {
	var r protocol.ReadResourceResult
	if err := c.request(ctx, protocol.MethodReadResource, map[string]string{"uri": uri}, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// GetPrompt gets the prompt name filled in with args (nil for none).
func (c *Client) GetPrompt(ctx context.Context, name string, args map[string]string) (*protocol.GetPromptResult, error) {
	params := map[string]any{"name": name}
	if args != nil {
		params["arguments"] = args
	}
	var r protocol.GetPromptResult
	if err := c.request(ctx, protocol.MethodGetPrompt, params, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Complete asks the server for the values of the argument named argument
// of ref (a prompt or a resource template) that complete value (the
// specification's Completion section).
func (c *Client) Complete(ctx context.Context, ref protocol.CompletionReference, argument, value string) (*protocol.Completion, error) {
	return c.sess().Complete(ctx, ref, argument, value)
}

// SetLogLevel asks the server for log messages (notifications/message, to
// Options.OnNotification) at level and more severe. On a legacy connection
// it sends logging/setLevel; on 2026-07-28, which has no such request,
// every later request carries the level in its _meta.
func (c *Client) SetLogLevel(ctx context.Context, level protocol.LoggingLevel) error {
	return c.sess().SetLogLevel(ctx, level)
}
