package middleware

import (
	"context"
	"fmt"
	"slices"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
)

// FilterTools hides the tools allow refuses from a caller: by name,
// annotation (a read-only policy), _meta, or whatever the descriptor
// says, per caller (nil for a caller the transport does not name). A
// hidden tool is left out of the caller's tools/list pages, and a
// tools/call of it is answered as for an unknown tool (-32602), before
// the tool runs. On 2026-07-28 every list page is marked cacheScope
// "private": what one caller sees is not another's.
//
// allow sees each descriptor as listed to the caller's revision (a
// legacy client's lack the fields its revision lacks); for tools/call it
// sees the 2026-07-28 form. It must be a pure function of its arguments,
// cheap, and safe for concurrent use: it runs for every listed tool.
//
// A notifications/tools/list_changed goes only to the callers the change
// concerns: one the tool added or removed is hidden from is not told
// (allow sees the tool's 2026-07-28 form). A change the server cannot
// name (another instance's, Options.Broker) is told to every caller.
func FilterTools(allow func(caller *auth.Principal, t *protocol.Tool) bool) mcp.Middleware {
	return func(next mcp.Handler) mcp.Handler {
		return func(ctx context.Context, req *mcp.Request) (json.RawMessage, error) {
			switch req.Method {
			case protocol.MethodCallTool:
				if t := req.Tool(); t != nil && !allow(req.Caller, t) {
					return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "invalid params: unknown tool %s", clip.Quote(req.Target))
				}
			case protocol.NotificationToolListChanged:
				if !req.FromServer() {
					break
				}
				if tools, known := req.ChangedTools(); known && !slices.ContainsFunc(tools, func(t *protocol.Tool) bool { return allow(req.Caller, t) }) {
					return nil, nil // a change of tools this caller does not see
				}
			case protocol.MethodListTools:
				raw, err := next(ctx, req)
				if err != nil {
					return raw, err
				}
				return filterList(raw, req, allow)
			}
			return next(ctx, req)
		}
	}
}

// filterList keeps the tools of a tools/list result allow accepts.
func filterList(raw json.RawMessage, req *mcp.Request, allow func(*auth.Principal, *protocol.Tool) bool) (json.RawMessage, error) {
	var page protocol.ListToolsResult
	if err := json.Unmarshal(raw, &page); err != nil {
		return nil, fmt.Errorf("middleware: FilterTools: reading the tools/list result: %w", err)
	}
	kept := page.Tools[:0]
	for i := range page.Tools {
		if allow(req.Caller, &page.Tools[i]) {
			kept = append(kept, page.Tools[i])
		}
	}
	shared := page.CacheScope != "" && page.CacheScope != protocol.CacheScopePrivate
	if len(kept) == len(page.Tools) && !shared {
		return raw, nil
	}
	page.Tools = kept
	if shared {
		page.CacheScope = protocol.CacheScopePrivate // another caller's page may differ
	}
	return json.Marshal(&page)
}
