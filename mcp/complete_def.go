package mcp

// Completion providers: the functions that suggest values for a prompt's
// argument or a resource template's variable as a user types
// (completion/complete). A provider is registered the same way for both,
// in the Complete field of the prompt (Prompt.Complete) or the template
// (ResourceTemplate.Complete) it serves, keyed by argument or variable
// name.
//
// The server, not the provider, enforces the protocol's rules: at most
// MaxCompletionValues values are sent (more set hasMore), total is never
// below the number sent, the reference and the argument are checked
// before a provider runs, and each caller is rate-limited. A provider
// gets the caller's identity (CompleteRequest.Caller) and must not
// suggest a value that caller may not see.

import (
	"context"
	"strings"

	"github.com/mcpwire/mcpwire/auth"
)

// MaxCompletionValues is the most values one completion result carries.
const MaxCompletionValues = 100

// CompleteRequest is one completion request as a provider sees it.
type CompleteRequest struct {
	// Argument is the name of the argument or variable being completed.
	Argument string
	// Value is what has been typed so far.
	Value string
	// Context holds the values already resolved for other arguments.
	Context map[string]string
	// Caller is who asks; nil when the server knows no caller.
	Caller *auth.Principal
}

// CompleteResult is a provider's answer.
type CompleteResult struct {
	// Values are the suggestions, best first. Beyond MaxCompletionValues
	// the server sends the first MaxCompletionValues and sets HasMore.
	Values []string
	// Total is the number of suggestions available, if known (0: not
	// known, unless there are none).
	Total int
	// HasMore reports that there are more suggestions than Values.
	HasMore bool
}

// CompleteFunc suggests values for one argument.
type CompleteFunc func(ctx context.Context, req CompleteRequest) (CompleteResult, error)

// CompletePrefix returns a provider that suggests the values that start
// with what was typed, in the order given: for a fixed list of choices.
func CompletePrefix(values ...string) CompleteFunc {
	return func(_ context.Context, req CompleteRequest) (CompleteResult, error) {
		var out []string
		for _, v := range values {
			if strings.HasPrefix(v, req.Value) {
				out = append(out, v)
			}
		}
		return CompleteResult{Values: out, Total: len(out)}, nil
	}
}
