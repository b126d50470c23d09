package mcp

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/schema"
)

// NewPrompt builds a prompt from a typed render function. In must be a struct
// whose members are strings (or struct{}, for a prompt without
// arguments): each member is an argument, named by its json tag, required
// unless the tag says omitempty (or omitzero) and described, as a tool's
// argument is, by its struct tags: a description tag, a bare jsonschema tag,
// or the jsonschema items description=... and required (see package
// schema). fn gets the arguments in In; an argument not given
// is "".
func NewPrompt[In any](name, description string, fn func(ctx context.Context, in In) (*PromptResult, error), opts ...PromptOption) Prompt {
	p := Prompt{Name: name, Description: description}
	for _, o := range opts {
		o(&p)
	}
	if fn == nil {
		p.err = fmt.Errorf("prompt %q has no render function", name)
		return p
	}
	t := reflect.TypeFor[In]()
	args, fields, err := promptArguments(t)
	if err != nil {
		p.err = fmt.Errorf("prompt %q: %w", name, err)
		return p
	}
	p.Arguments = args
	p.Get = func(ctx context.Context, values map[string]string) (*PromptResult, error) {
		var in In
		v := reflect.ValueOf(&in).Elem()
		for i, a := range args {
			v.FieldByIndex(fields[i]).SetString(values[a.Name])
		}
		return fn(ctx, in)
	}
	return p
}

// promptArguments lists the arguments of struct t and the index of each one's
// field. Descriptions and required come from the schema inferred for t, so
// a prompt reads struct tags exactly as a tool does (and refuses the same
// malformed ones, with the same errors).
func promptArguments(t reflect.Type) ([]PromptArgument, [][]int, error) {
	if t.Kind() != reflect.Struct {
		return nil, nil, fmt.Errorf("the argument type %s is not a struct of strings", t)
	}
	raw, err := schema.FromType(t)
	if err != nil {
		return nil, nil, err
	}
	var inferred struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(raw, &inferred); err != nil {
		return nil, nil, err
	}
	var (
		args   []PromptArgument
		fields [][]int
	)
	for _, m := range schema.Members(t) {
		if m.Type.Kind() != reflect.String || m.ViaPointer {
			return nil, nil, fmt.Errorf("argument %q (field %s) is %s: prompt arguments are strings", m.Name, m.GoPath, m.Type)
		}
		args = append(args, PromptArgument{
			Name:        m.Name,
			Description: inferred.Properties[m.Name].Description,
			Required:    slices.Contains(inferred.Required, m.Name),
		})
		fields = append(fields, m.Index)
	}
	return args, fields, nil
}
