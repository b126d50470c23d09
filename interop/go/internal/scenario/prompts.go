package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// The conformance prompts cmd/everything serves, and the one with a
// caller-dependent completion.
const (
	simplePrompt   = "test_simple_prompt"
	argsPrompt     = "test_prompt_with_arguments"
	reviewPrompt   = "deployment_review"
	reviewArgument = "environment"
)

// promptArgs are the values the prompt-args check sends: one plain, one
// with characters an encoder could mangle.
var promptArgs = map[string]string{"arg1": "testValue1", "arg2": `wért "2" ✓`}

// completeWant and completeNot are what completing deployment_review's
// environment from "" must and must not offer a caller that is no operator.
var (
	completeWant = []string{"development", "staging"}
	completeNot  = "production"
)

func (x *run) checkPrompts(ctx context.Context) {
	if x.skipNoCapability("prompts", "prompts") {
		return
	}
	x.prompts = x.checkListingWith(ctx, "prompts", Prompts, []string{simplePrompt, argsPrompt}, 2, func(l *listing) string {
		args, err := promptArguments(l.items[argsPrompt].Raw)
		if err != nil {
			return fmt.Sprintf("%s: %v", argsPrompt, err)
		}
		for _, a := range []string{"arg1", "arg2"} {
			if !args[a] {
				return fmt.Sprintf("%s does not list %s as a required argument: %.300s", argsPrompt, a, l.items[argsPrompt].Raw)
			}
		}
		return ""
	})
}

// promptArguments returns a listed prompt's arguments: name to required.
func promptArguments(raw json.RawMessage) (map[string]bool, error) {
	var p struct {
		Arguments []struct {
			Name     string `json:"name"`
			Required bool   `json:"required"`
		} `json:"arguments"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, a := range p.Arguments {
		out[a.Name] = a.Required
	}
	return out, nil
}

// getPrompt gets a prompt bounded by the step timeout.
func (x *run) getPrompt(ctx context.Context, name string, args map[string]string) ([]Message, error) {
	ctx, cancel := x.step(ctx)
	defer cancel()
	return x.sess.GetPrompt(ctx, name, args)
}

// messagesProblem checks that there are messages, each with a role and a
// content block.
func messagesProblem(msgs []Message) string {
	if len(msgs) == 0 {
		return "no messages"
	}
	for i, m := range msgs {
		if m.Role != "user" && m.Role != "assistant" {
			return fmt.Sprintf("message %d has role %q: %.300s", i, m.Role, m.Raw)
		}
		if m.Type == "" {
			return fmt.Sprintf("message %d has no content type: %.300s", i, m.Raw)
		}
	}
	return ""
}

func texts(msgs []Message) []string {
	var out []string
	for _, m := range msgs {
		if m.Type == "text" {
			out = append(out, m.Text)
		}
	}
	return out
}

// getMessages gets a prompt for check and requires well-formed messages;
// it fails the check and reports false otherwise.
func (x *run) getMessages(ctx context.Context, check, name string, args map[string]string) ([]Message, bool) {
	msgs, err := x.getPrompt(ctx, name, args)
	if err != nil {
		x.r.Fail(check, "%v", err)
		return nil, false
	}
	if p := messagesProblem(msgs); p != "" {
		x.r.Fail(check, "%s", p)
		return nil, false
	}
	return msgs, true
}

func (x *run) checkPromptSimple(ctx context.Context) {
	const check = "prompt-simple"
	if x.skipUnlistedItem(check, x.prompts, simplePrompt) {
		return
	}
	msgs, ok := x.getMessages(ctx, check, simplePrompt, nil)
	if !ok {
		return
	}
	t := texts(msgs)
	if len(t) == 0 || t[0] == "" {
		x.r.Fail(check, "no non-empty text message: %.300s", msgs[0].Raw)
		return
	}
	x.r.Pass(check, "%d message(s), role %s: %q", len(msgs), msgs[0].Role, t[0])
}

func (x *run) checkPromptArgs(ctx context.Context) {
	const check = "prompt-args"
	if x.skipUnlistedItem(check, x.prompts, argsPrompt) {
		return
	}
	msgs, ok := x.getMessages(ctx, check, argsPrompt, promptArgs)
	if !ok {
		return
	}
	all := strings.Join(texts(msgs), "\n")
	for _, k := range []string{"arg1", "arg2"} {
		if !strings.Contains(all, promptArgs[k]) {
			x.r.Fail(check, "the messages do not contain %s %q: %q", k, promptArgs[k], all)
			return
		}
	}
	x.r.Pass(check, "both values back byte-identical: %q", all)
}

func (x *run) checkPromptMissing(ctx context.Context) {
	const check = "prompt-missing"
	if x.skipUnlistedItem(check, x.prompts, argsPrompt) {
		return
	}
	mark := x.wire.Len()
	msgs, err := x.getPrompt(ctx, argsPrompt, map[string]string{"arg1": promptArgs["arg1"]})
	if err == nil {
		x.r.Fail(check, "the SDK returned %d messages without the required arg2; want a JSON-RPC error -32602", len(msgs))
		return
	}
	req, ok := x.request(mark, "prompts/get", func(p json.RawMessage) bool { return paramString(p, "name") == argsPrompt })
	if !ok {
		x.r.Fail(check, "no prompts/get on the wire; the SDK said %v", err)
		return
	}
	detail, problem := x.rpcError(req, err, -32602)
	if problem != "" {
		x.r.Fail(check, "%s", problem)
		return
	}
	x.r.Pass(check, "without arg2: %s", detail)
}

func (x *run) checkComplete(ctx context.Context) {
	const check = "complete"
	if x.skipNoCapability(check, "completions") || x.skipUnlistedItem(check, x.prompts, reviewPrompt) {
		return
	}
	ctx, cancel := x.step(ctx)
	defer cancel()
	c, err := x.sess.Complete(ctx, reviewPrompt, reviewArgument, "")
	switch {
	case err != nil:
		x.r.Fail(check, "%v", err)
	case missing(c.Values, completeWant) != nil:
		x.r.Fail(check, "values %q lack %q", c.Values, missing(c.Values, completeWant))
	case slices.Contains(c.Values, completeNot):
		x.r.Fail(check, "values %q offer %s to a caller that is no operator", c.Values, completeNot)
	default:
		x.r.Pass(check, "%s.%s from \"\": %q (total %d, hasMore %v), no %s for a caller that is no operator", reviewPrompt, reviewArgument, c.Values, c.Total, c.HasMore, completeNot)
	}
}
