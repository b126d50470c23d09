// Package mcpwire holds the module's Version. The SDK lives in its
// packages: mcp (the server: tools, resources, prompts, completion,
// request-scoped helpers, and RunStdio for stdio servers), tool (typed
// tools, results and content blocks), ask (asking the client for
// elicitation, sampling and roots), mcphttp (serving over Streamable
// HTTP); below them jsonrpc (messages and codec), transport (framing over
// byte streams) and protocol (the wire types).
package mcpwire
