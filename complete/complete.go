// Package complete defines completion providers: the functions that
// suggest values for a prompt's argument or a resource template's variable
// as a user types (completion/complete). A provider is registered with the
// prompt (prompt.Prompt.Complete) or the template
// (resource.Template.Complete) it serves.
//
// The server, not the provider, enforces the protocol's rules: at most
// MaxValues values are sent (more set hasMore), total is never below the
// number sent, the reference and the argument are checked before a
// provider runs, and each caller is rate-limited. A provider gets the
// caller's identity (Request.Caller) and must not suggest a value that
// caller may not see.
package complete

import (
	"context"

	"github.com/mcpwire/mcpwire/auth"
)

// MaxValues is the most values one completion result carries.
const MaxValues = 100

// Request is one completion request as a provider sees it.
type Request struct {
	// Argument is the name of the argument or variable being completed.
	Argument string
	// Value is what has been typed so far.
	Value string
	// Context holds the values already resolved for other arguments.
	Context map[string]string
	// Caller is who asks; nil when the server knows no caller.
	Caller *auth.Principal
}

// Result is a provider's answer.
type Result struct {
	// Values are the suggestions, best first. Beyond MaxValues the server
	// sends the first MaxValues and sets HasMore.
	Values []string
	// Total is the number of suggestions available, if known (0: not
	// known, unless there are none).
	Total int
	// HasMore reports that there are more suggestions than Values.
	HasMore bool
}

// Func suggests values for one argument.
type Func func(ctx context.Context, req Request) (Result, error)

// Prefix returns a provider that suggests the values that start with what
// was typed, in the order given: for a fixed list of choices.
func Prefix(values ...string) Func {
	return func(_ context.Context, req Request) (Result, error) {
		var out []string
		for _, v := range values {
			if len(v) >= len(req.Value) && v[:len(req.Value)] == req.Value {
				out = append(out, v)
			}
		}
		return Result{Values: out, Total: len(out)}, nil
	}
}
