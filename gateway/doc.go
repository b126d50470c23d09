// Package gateway serves several MCP servers as one: one endpoint (stdio
// or Streamable HTTP, both eras) in front of upstreams that speak stdio,
// Streamable HTTP in either era, or run in the same process. Command
// mcpwire gateway runs one from a configuration file (ParseConfig):
//
//	upstreams:
//	  - name: files                      # its tools appear as files_<tool>, prompts as files_<prompt>
//	    command: ["./files-server", "--root", "."]
//	    env: {LOG_LEVEL: debug}
//	  - name: remote
//	    url: http://127.0.0.1:9000/mcp
//	    headers: {Authorization: "Bearer ${REMOTE_TOKEN}"}
//
// Tools and prompts are namespaced: the upstream's name, the separator
// ("_" unless Config.Separator says otherwise) and the upstream's name for
// them; Config.NoNamespace serves them as they are. Resources and
// templates keep their URIs, and a read goes to the upstream that listed
// it. A name two upstreams give, or a URI two list (unless
// Upstream.ExcludeResources leaves it out of one), is a start-up error
// naming both. Completion goes to the upstream of the prompt or template.
//
// Each upstream is reached through package client with its gates on, so
// what an upstream lists and answers is checked before the gateway serves
// it, and the gateway's own server checks it again, as it checks any
// tool's. A call's progress is relayed to the caller, and its
// cancellation to the upstream. An upstream's tool list is followed (a
// listen stream in either era): tools it adds or changes appear, those it
// removes go, and the gateway's clients are told. Put policy (sign-in,
// audit, rate limits, tool filters) on the gateway's server with
// Options.Server's Middleware: one policy for every upstream.
//
// Each upstream is pinged every Options.HealthInterval. One that stops
// answering (a stdio server that died, an HTTP endpoint that hangs or
// refuses) is down: its tools leave the lists (clients are told), a call
// to one gets -32603 with data.reason "upstream_down" naming it, and the
// gateway reaches it again with a growing pause (250 ms to 30 s),
// starting a stdio server's command again; when it answers, its tools
// are back. A call in flight when its upstream dies fails naming the
// upstream; the other upstreams carry on.
//
// Not yet: relaying the upstreams' questions (sampling, elicitation,
// roots), log messages, resource updates and tasks, and following prompt
// and resource list changes.
package gateway
