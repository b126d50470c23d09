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
// An HTTP upstream that is protected gets a static token from
// Upstream.Headers, or signs in when it asks: as the gateway itself with
// Upstream.ClientCredentials (the client credentials grant, which a
// configuration file can give: clientCredentials: {clientId: ...,
// clientSecret: ${SECRET}}), or with any flow of package client/signin
// through Upstream.SignIn, from Go. An upstream in the same process is
// reached through a stateless endpoint of its server, with no bytes or
// pipe in between.
//
// Each upstream is reached through package client with its gates on, so
// what an upstream lists and answers is checked before the gateway serves
// it, and the gateway's own server checks it again, as it checks any
// tool's. An upstream's lists are followed (a listen stream in either
// era): tools, prompts and resources it adds or changes appear, those it
// removes go, and the gateway's clients are told; an update of a resource
// reaches the clients that follow it. Put policy (sign-in, audit, rate
// limits, tool filters) on the gateway's server with Options.Server's
// Middleware: one policy for every upstream.
//
// # What is relayed
//
// A call's progress goes to its caller and its cancellation to the
// upstream. What the upstream asks during a call (elicitation, in form
// and URL mode, sampling, roots) is asked of the caller in the caller's
// era and answered in the upstream's: a legacy upstream's request becomes
// a 2026-07-28 caller's input_required round and the reverse, and a
// 2026-07-28 upstream's round reaches a 2026-07-28 caller whole, under
// the upstream's keys, and travels in the caller's sealed requestState
// with the upstream's own: nothing waits between the caller's rounds, and
// any gateway with the same state key (mcp.Options.StateKey, behind one
// load balancer) takes the caller's next round. A legacy upstream's call
// cannot be resumed that way, so behind a 2026-07-28 caller it waits
// between the caller's rounds (up to 15 minutes, 1024 at most) and the
// caller's requestState leads the next round back to it. To a
// 2026-07-28 upstream each call declares the caller's own capabilities,
// so the upstream judges them as if the caller were its own (a caller
// without the tasks extension gets the upstream's -32021 from a tool that
// runs only as a task, say). Where the upstream cannot know them (a
// legacy upstream, which got the gateway's at initialize), a question the
// caller cannot answer gets the caller -32021 from the gateway, naming
// what it lacks, and the upstream's call is given up.
//
// A 2026-07-28 upstream's questions belong to the call they come in. A
// legacy upstream's request, and any upstream's log message, comes tied
// to no call the gateway's client can see: the gateway gives it to the
// one call in flight to that upstream; with several in
// flight, a question is refused and a log message goes to the gateway's
// own log (at debug, without its data). Log messages reach the caller at
// the caller's own level.
//
// An upstream's task is the gateway's: a caller that declares the tasks
// extension gets a task of the gateway's (its own id, its own
// tasks/get, tasks/cancel passed on) when the upstream makes one of the
// call, and the result on its request otherwise; the gateway follows the
// upstream's task.
//
// Each upstream is pinged every Options.HealthInterval. One that stops
// answering (a stdio server that died, an HTTP endpoint that hangs or
// refuses) is down: its tools leave the lists (clients are told), a call
// to one gets -32603 with data.reason "upstream_down" naming it, and the
// gateway reaches it again with a growing pause (250 ms to 30 s),
// starting a stdio server's command again; when it answers, its tools
// are back. A call in flight when its upstream dies fails naming the
// upstream; the other upstreams carry on.
package gateway
