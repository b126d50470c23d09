package client

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/internal/peer/review"
	"github.com/mcpwire/mcpwire/protocol"
)

// Tools lists the server's tools that the Admit gate lets through, page
// after page: a refused tool is left out (its findings are in
// [Client.Findings] and logged) and cannot be called. The iteration ends
// at the first error, which it yields.
func (c *Client) Tools(ctx context.Context) iter.Seq2[*protocol.Tool, error] {
	return func(yield func(*protocol.Tool, error) bool) {
		seen := map[string]bool{}
		complete := true
		for t, err := range list(c, ctx, toolsKind, c.admitTool) {
			if err != nil {
				complete = false
				yield(nil, err)
				return
			}
			seen[t.Name] = true
			if !yield(t, nil) {
				complete = false
				return
			}
		}
		if complete {
			c.mu.Lock()
			c.listed = true
			for name := range c.tools {
				if !seen[name] {
					delete(c.tools, name) // gone from the server
				}
			}
			c.mu.Unlock()
		}
	}
}

// admitTool applies the caller's policy to a tool the rules admit, and
// keeps the descriptors of admitted tools for their calls.
func (c *Client) admitTool(name string, raw json.RawMessage, t *protocol.Tool) error {
	if f := c.opts.Admit; f != nil {
		if err := f(c.sess().ServerInfo(), t); err != nil {
			fs := []Finding{{Gate: gateAdmit, Item: clip.String(name), Rule: rulePolicy, Message: clip.String(err.Error()), Refused: !c.opts.Lenient}}
			if refused := c.record(fs); refused != nil {
				c.refuse(t.Name, &fs[0])
				return refused
			}
		}
	}
	c.mu.Lock()
	c.tools[t.Name] = raw
	delete(c.refused, t.Name)
	c.mu.Unlock()
	return nil
}

// refuse remembers that the tool name was refused.
func (c *Client) refuse(name string, f *Finding) {
	c.mu.Lock()
	c.refused[name] = f
	delete(c.tools, name)
	c.mu.Unlock()
}

// Resources lists the server's resources the Admit gate lets through, as
// Tools does.
func (c *Client) Resources(ctx context.Context) iter.Seq2[*protocol.Resource, error] {
	return list[protocol.Resource](c, ctx, resourcesKind, nil)
}

// ResourceTemplates lists the server's resource templates the Admit gate
// lets through, as Tools does.
func (c *Client) ResourceTemplates(ctx context.Context) iter.Seq2[*protocol.ResourceTemplate, error] {
	return list[protocol.ResourceTemplate](c, ctx, templatesKind, nil)
}

// Prompts lists the server's prompts the Admit gate lets through, as
// Tools does.
func (c *Client) Prompts(ctx context.Context) iter.Seq2[*protocol.Prompt, error] {
	return list[protocol.Prompt](c, ctx, promptsKind, nil)
}

// descriptor returns the admitted descriptor of the tool name, listing the
// tools first when they have not been listed since they last changed. A
// tool the Admit gate refused is an error; a tool the server never listed
// has no descriptor (nil) and is called as it is.
func (c *Client) descriptor(ctx context.Context, name string) (json.RawMessage, error) {
	c.mu.Lock()
	d, ok := c.tools[name]
	f := c.refused[name]
	listed := c.listed
	c.mu.Unlock()
	switch {
	case ok:
		return d, nil
	case f != nil:
		return nil, f
	case listed:
		return nil, nil
	}
	for _, err := range c.Tools(ctx) {
		if err != nil {
			return nil, fmt.Errorf("client: listing the tools to find %s: %w", clip.Quote(name), err)
		}
	}
	c.mu.Lock()
	d, f = c.tools[name], c.refused[name]
	c.mu.Unlock()
	if f != nil {
		return nil, f
	}
	return d, nil
}

// CallTool calls the tool name with args (nil for none; a
// json.RawMessage is sent as it is, any other value encoded as a JSON
// object). A tool that ran and failed is a result with IsError set; an
// error is the call itself failing: a *jsonrpc.Error from the server
// (such as -32602 for an unknown tool), a *Finding when the Admit gate
// refused the tool or the Consume gate the result (invalid content, or
// structured content that breaks the tool's output schema), or what kept
// the call from an answer. The tools are listed first when the client has
// not listed them since they last changed: the Consume gate checks a
// result against its tool's descriptor.
func (c *Client) CallTool(ctx context.Context, name string, args any) (*protocol.CallToolResult, error) {
	desc, err := c.descriptor(ctx, name)
	if err != nil {
		return nil, err
	}
	params, err := toolParams(name, args)
	if err != nil {
		return nil, fmt.Errorf("client: the arguments of %s: %w", clip.Quote(name), err)
	}
	raw, err := c.raw(ctx, protocol.MethodCallTool, params)
	if err != nil {
		return nil, err
	}
	if c.tasks && isTask(raw) {
		if raw, err = c.followTask(ctx, raw); err != nil {
			return nil, err
		}
	}
	if desc == nil {
		desc = unlisted
	}
	if err := c.judge(name, review.Result(c.sess().Revision(), desc, raw)); err != nil {
		return nil, err
	}
	r, err := decodeResult(raw)
	if err != nil {
		return nil, c.record([]Finding{{Gate: gateConsume, Item: clip.String(name), Rule: review.RuleResultShape,
			Message: "the result does not decode: " + clip.String(err.Error()), Refused: true}})
	}
	return r, nil
}

// toolParams encodes the params of a tools/call of name with args: a
// json.RawMessage as it is (it must be JSON), any other value encoded.
func toolParams(name string, args any) (json.RawMessage, error) {
	var a json.RawMessage
	switch v := args.(type) {
	case nil:
	case json.RawMessage:
		if _, ok := (&jsonx.Scanner{}).Scan(v); !ok {
			return nil, errors.New("the json.RawMessage is not JSON")
		}
		a = v
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		a = b
	}
	buf := make([]byte, 0, len(`{"name":,"arguments":}`)+len(name)+2+len(a))
	buf = jsonx.AppendString(append(buf, `{"name":`...), name)
	if a != nil {
		buf = append(append(buf, `,"arguments":`...), a...)
	}
	return append(buf, '}'), nil
}

// unlisted is the descriptor of a tool the server did not list: it
// declares no output schema.
var unlisted = json.RawMessage(`{}`)

// CallToolAs calls the tool name with args, as [Client.CallTool] does, and
// decodes its structured content, checked by the Consume gate against the
// tool's output schema, into an Out. A tool that reported an error gives
// ErrToolFailed with its text; a result without structured content is an
// error too.
func CallToolAs[Out any](ctx context.Context, c *Client, name string, args any) (Out, error) {
	var out Out
	r, err := c.CallTool(ctx, name, args)
	if err != nil {
		return out, err
	}
	if r.IsError != nil && *r.IsError {
		return out, fmt.Errorf("%w: %s: %s", ErrToolFailed, clip.Quote(name), clip.String(text(r.Content)))
	}
	if len(r.StructuredContent) == 0 {
		return out, fmt.Errorf("client: the result of %s has no structured content", clip.Quote(name))
	}
	if err := json.Unmarshal(r.StructuredContent, &out); err != nil {
		return out, fmt.Errorf("client: the structured content of %s does not decode into %T: %w", clip.Quote(name), out, err)
	}
	return out, nil
}

// text joins the text of the text blocks.
func text(blocks []protocol.ContentBlock) string {
	var parts []string
	for _, b := range blocks {
		if b.Text != nil {
			parts = append(parts, b.Text.Text)
		}
	}
	return strings.Join(parts, "\n")
}
