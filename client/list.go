package client

import (
	"context"
	"fmt"
	"iter"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	engine "github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/internal/peer/review"
	"github.com/mcpwire/mcpwire/protocol"
)

// maxPages bounds the pages of one list.
const maxPages = 1000

// kind is what one list method lists and how its items are admitted.
type kind struct {
	method string
	key    string // the result's member holding the page's items
	name   string // the item's member that names it in findings
	review func(revision string, descriptor json.RawMessage) []review.Problem
}

var (
	toolsKind     = kind{protocol.MethodListTools, "tools", "name", review.Tool}
	resourcesKind = kind{protocol.MethodListResources, "resources", "uri", review.Resource}
	templatesKind = kind{protocol.MethodListResourceTemplates, "resourceTemplates", "name", review.ResourceTemplate}
	promptsKind   = kind{protocol.MethodListPrompts, "prompts", "name", review.Prompt}
)

// page is one page of a list, items as written.
type page struct {
	items      []json.RawMessage
	nextCursor *string
}

// fetchPage gets the page at cursor (nil: the first).
func (c *Client) fetchPage(ctx context.Context, k kind, cursor *string) (page, error) {
	var params any
	if cursor != nil {
		params = map[string]string{"cursor": *cursor}
	}
	raw, err := c.raw(ctx, k.method, params)
	if err != nil {
		return page{}, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return page{}, fmt.Errorf("%w: the %s result is not an object: %v", engine.ErrBadAnswer, k.method, err)
	}
	var p page
	if items, ok := m[k.key]; ok && string(items) != "null" {
		if err := json.Unmarshal(items, &p.items); err != nil {
			return page{}, fmt.Errorf("%w: the %s result's %s is not an array", engine.ErrBadAnswer, k.method, k.key)
		}
	}
	if next, ok := m["nextCursor"]; ok && string(next) != "null" {
		var s string
		if err := json.Unmarshal(next, &s); err != nil {
			return page{}, fmt.Errorf("%w: the %s result's nextCursor is not a string", engine.ErrBadAnswer, k.method)
		}
		p.nextCursor = &s
	}
	return p, nil
}

// itemName returns the member of a descriptor that names it, or
// "#i" (its place in the list) when it has none.
func itemName(raw json.RawMessage, member string, i int) string {
	var s string
	if v, err := jsonx.Fields(raw, member); err == nil && json.Unmarshal(v[0], &s) == nil && s != "" {
		return s
	}
	return fmt.Sprintf("#%d", i)
}

// list yields the admitted items of every page, following nextCursor
// until it is absent ("" is a real cursor). admit, when not nil, is run on
// each item the rules admit and may refuse it.
func list[T any](c *Client, ctx context.Context, k kind, admit func(name string, raw json.RawMessage, item *T) error) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		var cursor *string
		n := 0
		for pages := 0; ; pages++ {
			if pages == maxPages {
				yield(nil, fmt.Errorf("client: %s had more than %d pages", k.method, maxPages))
				return
			}
			p, err := c.fetchPage(ctx, k, cursor)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, raw := range p.items {
				n++
				name := itemName(raw, k.name, n)
				item, ok := admitItem[T](c, k, name, raw)
				if !ok {
					continue
				}
				if admit != nil && admit(name, raw, item) != nil {
					continue
				}
				if !yield(item, nil) {
					return
				}
			}
			if p.nextCursor == nil {
				return
			}
			cursor = p.nextCursor
		}
	}
}

// admitItem applies the specification's rules to one descriptor and
// decodes it; ok is false when it is refused, with the findings recorded.
func admitItem[T any](c *Client, k kind, name string, raw json.RawMessage) (*T, bool) {
	if err := c.judge(name, k.review(c.sess().Revision(), raw)); err != nil {
		if f, ok := err.(interface{ Unwrap() []error }); ok && k.method == protocol.MethodListTools {
			c.refuse(name, f.Unwrap()[0].(*Finding))
		}
		return nil, false
	}
	item := new(T)
	if err := json.Unmarshal(raw, item); err != nil {
		c.record([]Finding{{Gate: gateAdmit, Item: clip.String(name), Rule: review.RuleDescriptor,
			Message: "the descriptor does not decode: " + clip.String(err.Error()), Refused: !c.opts.Lenient}})
		return nil, false
	}
	return item, true
}
