package ask

import (
	"context"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// Roots returns the client's roots: the directories and files it lets the
// server work in (file:// URIs). The client must have declared roots. In
// the legacy era the list is cached per connection until the client sends
// notifications/roots/list_changed.
func Roots(ctx context.Context, opts ...Option) ([]protocol.Root, error) {
	raw, err := do(ctx, protocol.MethodListRoots, struct{}{}, []string{"roots"}, opts)
	if err != nil {
		return nil, err
	}
	var res protocol.ListRootsResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, &AnswerError{Problems: []string{"the answer is not a roots list: " + err.Error()}}
	}
	var problems []string
	for i, r := range res.Roots {
		if r.URI == "" {
			problems = append(problems, "root "+itoa(i)+" has no uri")
		}
	}
	if problems != nil {
		return nil, &AnswerError{Problems: problems}
	}
	return res.Roots, nil
}
