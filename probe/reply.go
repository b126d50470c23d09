package probe

import "github.com/mcpwire/mcpwire/tool"

// reply builds a probe reply: a result with no content block whose _meta
// carries the patterns. A MetaResult is exempt from the tool's output
// schema, so tools that declare one can answer probes too.
func reply(meta map[string]any) *tool.Result {
	return tool.MetaResult(meta)
}
