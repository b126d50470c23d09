package check

import (
	"context"
	"errors"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// List is one of the lists a server may offer.
type List struct {
	Method string // the method: tools/list
	Member string // the page member holding the items, and the list's key in Report.Pages: tools
	ID     string // the item member that names an item: name
	Noun   string // for messages: tool
}

// The lists, and all of them in the order they are read and reported.
var (
	ToolList     = List{protocol.MethodListTools, "tools", "name", "tool"}
	ResourceList = List{protocol.MethodListResources, "resources", "uri", "resource"}
	TemplateList = List{protocol.MethodListResourceTemplates, "resourceTemplates", "uriTemplate", "resource template"}
	PromptList   = List{protocol.MethodListPrompts, "prompts", "name", "prompt"}
	Lists        = []List{ToolList, ResourceList, TemplateList, PromptList}
)

// finding is a list's answer a client cannot use: reported, and the
// review goes on without that list.
type finding struct{ rule, msg string }

func (f *finding) Error() string { return f.msg }

// discover lists tools, and the resources, resource templates and prompts
// the server declares, twice each, and records the first listing's items
// in rep with what differed. An error means the review cannot go on: a
// list got no answer in time, or the connection ended.
func discover(ctx context.Context, s *client.Session, opts Options, rep *Report) error {
	caps := s.Capabilities()
	lists := []struct {
		k        List
		declared bool
		keep     func([]json.RawMessage)
	}{
		{ToolList, caps.Tools != nil, func(items []json.RawMessage) { rep.Tools = toolReports(items) }},
		{ResourceList, caps.Resources != nil, func(items []json.RawMessage) { rep.Resources = itemReports(items, "name", "uri") }},
		{TemplateList, caps.Resources != nil, func(items []json.RawMessage) { rep.ResourceTemplates = itemReports(items, "name", "uriTemplate") }},
		{PromptList, caps.Prompts != nil, func(items []json.RawMessage) { rep.Prompts = itemReports(items, "name", "") }},
	}
	for _, l := range lists {
		if !l.declared && l.k != ToolList { // tools/list is tried even undeclared
			continue
		}
		items, pages, err := listTwice(ctx, s, opts, rep, l.k, l.declared)
		if err != nil {
			return err
		}
		if pages > 0 {
			rep.Pages[l.k.Member] = pages
			l.keep(items)
		}
	}
	return nil
}

// listTwice lists k twice and reports what differs; it returns the first
// listing's items and page count (0 when the list could not be read).
func listTwice(ctx context.Context, s *client.Session, opts Options, rep *Report, k List, declared bool) ([]json.RawMessage, int, error) {
	opts.step("%s…", k.Method)
	first, pages, err := listOnce(ctx, s, k, opts)
	var f *finding
	if errors.As(err, &f) {
		if declared {
			rep.problem(GateDiscover, f.rule, f.msg)
		}
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	second, _, err := listOnce(ctx, s, k, opts)
	if errors.As(err, &f) {
		rep.problem(GateDiscover, f.rule, "the second listing: "+f.msg)
		return first, pages, nil
	}
	if err != nil {
		return nil, 0, err
	}
	for _, p := range compare(k, first, second) {
		rep.problem(GateDiscover, p.rule, p.msg)
	}
	if d := duplicates(k, first); d != nil {
		rep.problem(GateDiscover, d.rule, d.msg)
	}
	return first, pages, nil
}

// listOnce fetches every page of k within opts.Timeout and returns the items
// and the page count. A list the server refused or wrote wrong is a
// *finding; no answer in time, or the end of the connection, an error.
func listOnce(ctx context.Context, s *client.Session, k List, opts Options) ([]json.RawMessage, int, error) {
	lctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	pages, err := s.ListPages(lctx, k.Method)
	var rpcErr *jsonrpc.Error
	switch {
	case errors.As(err, &rpcErr):
		return nil, 0, &finding{RuleListRefused, fmt.Sprintf("%s, page %d, was answered with error %d (%s)",
			k.Method, len(pages)+1, rpcErr.Code, clip.String(rpcErr.Message))}
	case errors.Is(err, client.ErrBadAnswer), errors.Is(err, client.ErrTooManyPages):
		return nil, 0, &finding{RuleListInvalid, Trim(err)}
	case err != nil && lctx.Err() != nil && ctx.Err() == nil:
		return nil, 0, fmt.Errorf("%s got no answer within %v (%s)", k.Method, opts.Timeout, opts.TimeoutName)
	case err != nil:
		return nil, 0, err
	}
	var items []json.RawMessage
	for i, page := range pages {
		var members map[string]json.RawMessage
		var got []json.RawMessage
		if json.Unmarshal(page, &members) != nil || json.Unmarshal(members[k.Member], &got) != nil || got == nil {
			return nil, 0, &finding{RuleListInvalid, fmt.Sprintf("%s, page %d: %s is missing or not an array", k.Method, i+1, k.Member)}
		}
		items = append(items, got...)
	}
	return items, len(pages), nil
}
