package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/contract"
	"github.com/mcpwire/mcpwire/internal/feature"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// promptEntry is a registered prompt and its _meta, encoded once.
type promptEntry struct {
	p    Prompt
	meta protocol.Meta
}

// AddPrompt registers a prompt, typically one that NewPrompt built. It
// fails, wrapping ErrInvalidPrompt, for the problem NewPrompt found
// (p.Err), a name that is not ^[A-Za-z0-9_.-]{1,128}$, a missing render
// function, an argument without a name or named twice, a completion
// provider for an argument the prompt does not have, or a _meta that
// cannot be encoded; and, wrapping ErrDuplicatePrompt, when the name is
// taken. prompts/list lists prompts in registration order.
func (s *Server) AddPrompt(p Prompt) error {
	if err := checkPrompt(p); err != nil {
		return fmt.Errorf("mcp: AddPrompt: %w: %w", ErrInvalidPrompt, err)
	}
	scopes, err := checkScopes(fmt.Sprintf("prompt %q", p.Name), p.Scopes)
	if err != nil {
		return fmt.Errorf("mcp: AddPrompt: %w: %w", ErrInvalidPrompt, err)
	}
	p.Scopes = scopes
	meta, err := protocol.MetaOf(p.Meta)
	if err != nil {
		return fmt.Errorf("mcp: AddPrompt: %w: prompt %q: %w", ErrInvalidPrompt, p.Name, err)
	}
	p.Arguments = slices.Clone(p.Arguments)
	return promptList.add(s, "AddPrompt", &promptEntry{p: p, meta: meta}, ErrDuplicatePrompt)
}

// MustAddPrompt is AddPrompt that panics on error, for start-up code.
func (s *Server) MustAddPrompt(p Prompt) { must(s.AddPrompt(p)) }

// RemovePrompt unregisters a prompt by name and reports whether it was
// there; the order of the others is kept.
func (s *Server) RemovePrompt(name string) bool { return promptList.remove(s, name) }

func checkPrompt(p Prompt) error {
	if err := p.Err(); err != nil {
		return err
	}
	if !contract.ValidName(p.Name) {
		return fmt.Errorf("prompt name %q is invalid: it must match ^[A-Za-z0-9_.-]{1,128}$", p.Name)
	}
	if p.Get == nil {
		return fmt.Errorf("prompt %q has no render function", p.Name)
	}
	seen := map[string]bool{}
	for i, a := range p.Arguments {
		switch {
		case a.Name == "":
			return fmt.Errorf("prompt %q: argument %d has no name", p.Name, i)
		case seen[a.Name]:
			return fmt.Errorf("prompt %q: argument %q is listed twice", p.Name, a.Name)
		}
		seen[a.Name] = true
	}
	for name := range p.Complete {
		if !seen[name] {
			return fmt.Errorf("prompt %q: a completion provider for %q, which is not one of its arguments", p.Name, name)
		}
	}
	return nil
}

// scoped reports whether the prompt needs scopes (see scopes.go).
func (e *promptEntry) scoped() bool { return len(e.p.Scopes) > 0 }

// handlePromptsGet renders a prompt. An unknown prompt, a missing required
// argument and an unknown argument are -32602; a render that fails is
// -32603 unless it returned a *jsonrpc.Error on purpose.
func handlePromptsGet(ctx context.Context, ss *session, c *call, r *request, p *protocol.GetPromptRequestParams) (any, error) {
	if p.Name == "" {
		return nil, invalidParams(`prompts/get needs a "name" string`)
	}
	e, ok := promptList.get(ss.srv, p.Name)
	if !ok {
		return nil, invalidParams("unknown prompt %s", clip.Quote(p.Name))
	}
	if !r.caller.HasScopes(e.p.Scopes...) {
		return nil, scopeRefusal(ctx, "prompt "+clip.Quote(p.Name), e.p.Scopes, invalidParams("unknown prompt %s", clip.Quote(p.Name)))
	}
	if err := checkPromptArguments(e.p, p.Arguments); err != nil {
		return nil, err
	}
	args := p.Arguments
	if args == nil {
		args = map[string]string{}
	}
	in, rerr := ss.srv.openInput(r, p.Name, promptArgsJSON(args), r.params.Get("inputResponses"), p.RequestState)
	if rerr != nil {
		return nil, rerr
	}
	c.in = in
	res, err := e.p.Get(c.handlerContext(ctx), args)
	if missing := missingCapability(err); missing != nil {
		return nil, missing
	}
	if res, rerr := ss.srv.required(in); res != nil || rerr != nil {
		return inputOutcome(res, rerr)
	}
	if err != nil {
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			return nil, rpcErr
		}
		ss.log.Log(ctx, ss.srv.opts.HandlerErrorLevel, "mcp: prompt failed", "prompt", p.Name, "id", c.id.String(), "error", err.Error())
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: prompt %s: %s", clip.Quote(p.Name), err.Error())
	}
	out, err := wirePromptResult(res, r.rev)
	if err != nil {
		ss.log.Error("mcp: prompt broke its contract", "prompt", p.Name, "id", c.id.String(), "violation", err.Error())
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: prompt %s: %s", clip.Quote(p.Name), err.Error())
	}
	return out, nil
}

// checkPromptArguments refuses a missing required argument and an unknown
// one, naming every problem at once.
func checkPromptArguments(p Prompt, given map[string]string) *jsonrpc.Error {
	var problems []string
	known := make(map[string]bool, len(p.Arguments))
	for _, a := range p.Arguments {
		known[a.Name] = true
		if _, ok := given[a.Name]; a.Required && !ok {
			problems = append(problems, fmt.Sprintf("the required argument %q is missing", a.Name))
		}
	}
	var unknown []string
	for name := range given {
		if !known[name] {
			unknown = append(unknown, clip.Quote(name))
		}
	}
	sort.Strings(unknown)
	for _, name := range unknown {
		problems = append(problems, fmt.Sprintf("prompt %q has no argument %s", p.Name, name))
	}
	if len(problems) == 0 {
		return nil
	}
	return invalidParams("%s", strings.Join(problems, "; "))
}

// wirePromptResult checks a rendering and projects its messages for
// revision r, as tool results are.
func wirePromptResult(res *PromptResult, r protocol.Revision) (*protocol.GetPromptResult, error) {
	if res == nil || len(res.Messages) == 0 {
		return nil, errNoMessages
	}
	out := &protocol.GetPromptResult{Description: res.Description, Messages: make([]protocol.PromptMessage, 0, len(res.Messages))}
	for i, m := range res.Messages {
		if m.Role != protocol.RoleUser && m.Role != protocol.RoleAssistant {
			return nil, fmt.Errorf("messages[%d]: role %q is not \"user\" or \"assistant\"", i, m.Role)
		}
		if err := contract.CheckBlock(m.Content); err != nil {
			return nil, fmt.Errorf("messages[%d]: %w", i, err)
		}
		block, err := projectContent(m.Content, r)
		if err != nil {
			return nil, fmt.Errorf("messages[%d]: %w", i, err)
		}
		out.Messages = append(out.Messages, protocol.PromptMessage{Role: protocol.Role(m.Role), Content: protocol.BlockOf(block)})
	}
	if feature.ContentMeta(r) {
		meta, err := protocol.MetaOf(res.Meta)
		if err != nil {
			return nil, err
		}
		if meta != nil {
			out.Meta = &protocol.ResultMeta{Other: meta}
		}
	}
	return out, nil
}

// wire is the prompt descriptor with the fields revision r defines.
func (e *promptEntry) wire(r protocol.Revision) protocol.Prompt {
	p := e.p
	w := protocol.Prompt{Name: p.Name, Description: p.Description}
	for _, a := range p.Arguments {
		wa := protocol.PromptArgument{Name: a.Name, Description: a.Description}
		if a.Required {
			yes := true
			wa.Required = &yes
		}
		if feature.Titles(r) {
			wa.Title = a.Title
		}
		w.Arguments = append(w.Arguments, wa)
	}
	newerFields(r, &w.Title, &w.Meta, &w.Icons, p.Title, e.meta, p.Icons)
	return w
}

// hasPrompts reports whether any prompt is registered.
func (s *Server) hasPrompts() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.prompts.list) > 0
}
