package args_test

import (
	"context"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/args"
	"github.com/mcpwire/mcpwire/tool"
)

// A raw-argument handler reads every argument, then returns all the
// problems at once.
func Example() {
	handle := func(_ context.Context, raw json.RawMessage) (*tool.Result, error) {
		a := args.Parse(raw)
		query := a.String("query")
		limit := a.OptInt("limit", 10)
		order := a.OptEnum("order", "relevance", "relevance", "date")
		tags := a.OptStrings("tags", nil)
		if res := a.Result(); res != nil {
			return res, nil
		}
		return tool.TextResult(fmt.Sprintf("%s limit=%d order=%s tags=%v", query, limit, order, tags)), nil
	}
	for _, raw := range []string{
		`{"query":"mcp","tags":["go"]}`,
		`{"limit":"ten","order":"random","tags":["go",1]}`,
	} {
		res, _ := handle(context.Background(), json.RawMessage(raw))
		fmt.Println(res.Content[0].(*tool.Text).Text)
	}
	// Output:
	// mcp limit=10 order=relevance tags=[go]
	// invalid arguments:
	// - "query" is required
	// - "limit" must be an integer; got the string "ten"
	// - "order" must be one of "relevance", "date"; got the string "random"
	// - "tags"[1] must be a string; got the number 1
}
