package mcp

import "github.com/mcpwire/mcpwire/protocol"

// method describes one request method: everything checked before its
// handler runs, and every other fact that depends on the method alone,
// lives here. A new method is one line of the table plus its handler;
// TestMethodTable fails when a line lacks a fact its era needs.
type method struct {
	// handle runs the method and returns its result (marshalled unless it
	// is already json.RawMessage) or an error; typed handlers get their
	// params decoded first (see typed).
	handle handler
	// legacy and modern tell which eras define the method.
	legacy, modern bool
	// inline methods are cheap and run on the read loop.
	inline bool
	// long methods (subscriptions) run on their own goroutine outside the
	// concurrency limit, since they last until cancelled.
	long bool
	// beforeInit legacy methods may be called before initialize.
	beforeInit bool
	// needs, when set, reports whether the server serves what the method
	// belongs to (resources, prompts, completion providers): a server
	// that does not answers -32601, as for an unknown method.
	needs func(*Server) bool

	// cacheable methods' complete modern results carry ttlMs and
	// cacheScope (Options.CacheHints).
	cacheable bool
	// target is what the request names (a tool, a prompt, a resource, a
	// task), as the observer reports it and input_required state binds it.
	target target
	// asks: the method's handler may ask the client for input, so that
	// a modern answer may be input_required (see openInput).
	asks bool
	// named is the params member the HTTP Mcp-Name header mirrors (the
	// 2026-07-28 Streamable HTTP transport's routing headers), "" when
	// the method has none.
	named string
	// result is the schema definition of the method's result, as the
	// specification's schema names it: the base Result for a method an
	// extension adds (the tasks extension's), which the schema lacks.
	result string
}

// target is the kind of thing a request names.
type target int

const (
	targetNone     target = iota
	targetTool            // params.name, a tool
	targetPrompt          // params.name, a prompt
	targetResource        // params.uri, a resource
	targetRef             // params.ref, a prompt or resource reference (completion)
	targetTask            // params.taskId, a task
)

// noun names the target in an error message to the client.
func (t target) noun() string {
	switch t {
	case targetPrompt:
		return "prompt"
	case targetResource:
		return "resource URI"
	}
	return "tool"
}

// What methods belong to.
func capResources(s *Server) bool   { return s.hasResources() || s.opts.DynamicResources }
func capPrompts(s *Server) bool     { return s.hasPrompts() || s.opts.DynamicPrompts }
func capCompletions(s *Server) bool { return s.hasCompletions() }

// methods is the one method table, keyed by the method names of package
// protocol.
var methods map[string]method

func init() {
	methods = map[string]method{
		protocol.MethodInitialize: {handle: typed(handleInitialize), legacy: true, inline: true, beforeInit: true,
			result: "InitializeResult"},
		protocol.MethodPing: {handle: handlePing, legacy: true, inline: true, beforeInit: true,
			result: "EmptyResult"},
		protocol.MethodSetLevel: {handle: typed(handleSetLevel), legacy: true, inline: true,
			result: "EmptyResult"},
		protocol.MethodDiscover: {handle: handleDiscover, modern: true, inline: true, cacheable: true,
			result: "DiscoverResult"},
		protocol.MethodListTools: {handle: typed(toolList.serve), legacy: true, modern: true, inline: true, cacheable: true,
			result: "ListToolsResult"},
		protocol.MethodCallTool: {handle: typed(handleToolsCall), legacy: true, modern: true,
			target: targetTool, asks: true, named: "name", result: "CallToolResult"},
		protocol.MethodSubscriptionsListen: {handle: typed(handleListen), modern: true, long: true,
			result: "SubscriptionsListenResult"},
		protocol.MethodGetTask: {handle: typed(handleTasksGet), modern: true, inline: true,
			target: targetTask, named: "taskId", result: "Result"},
		protocol.MethodUpdateTask: {handle: typed(handleTasksUpdate), modern: true,
			target: targetTask, named: "taskId", result: "Result"},
		protocol.MethodCancelTask: {handle: typed(handleTasksCancel), modern: true, inline: true,
			target: targetTask, named: "taskId", result: "Result"},

		protocol.MethodListResources: {handle: typed(resourceList.serve), legacy: true, modern: true, inline: true,
			needs: capResources, cacheable: true, result: "ListResourcesResult"},
		protocol.MethodListResourceTemplates: {handle: typed(templateList.serve), legacy: true, modern: true, inline: true,
			needs: capResources, cacheable: true, result: "ListResourceTemplatesResult"},
		protocol.MethodReadResource: {handle: typed(handleResourcesRead), legacy: true, modern: true,
			needs: capResources, cacheable: true, target: targetResource, asks: true, named: "uri", result: "ReadResourceResult"},
		protocol.MethodResourcesSubscribe: {handle: typed(handleResourcesSubscribe), legacy: true, inline: true,
			needs: capResources, target: targetResource, result: "EmptyResult"},
		protocol.MethodResourcesUnsubscribe: {handle: typed(handleResourcesUnsubscribe), legacy: true, inline: true,
			needs: capResources, target: targetResource, result: "EmptyResult"},

		protocol.MethodListPrompts: {handle: typed(promptList.serve), legacy: true, modern: true, inline: true,
			needs: capPrompts, cacheable: true, result: "ListPromptsResult"},
		protocol.MethodGetPrompt: {handle: typed(handlePromptsGet), legacy: true, modern: true,
			needs: capPrompts, target: targetPrompt, asks: true, named: "name", result: "GetPromptResult"},
		protocol.MethodComplete: {handle: typed(handleComplete), legacy: true, modern: true,
			needs: capCompletions, target: targetRef, result: "CompleteResult"},
	}
}
