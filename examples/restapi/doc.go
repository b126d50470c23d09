// Command restapi is an example server to copy: MCP tools that wrap a REST
// API, served over Streamable HTTP and protected by OAuth.
//
//	go build -o restapi ./examples/restapi
//	RESTAPI_TOKEN=dev-secret ./restapi -addr 127.0.0.1:8080 -api http://127.0.0.1:9000
//
// The upstream is a small to-do API (GET /todos lists the to-dos, POST
// /todos with {"title": "…"} adds one), called with net/http. Its tools:
//
//   - list_todos (read-only) lists the to-dos, optionally only the open ones;
//   - add_todo adds one, and needs the scope todos:write besides.
//
// The endpoint is an OAuth 2.1 resource server (the specification's
// Authorization section), as README.md's Authorization section teaches:
// oauth.NewResourceServer checks every request's bearer token and serves
// the Protected Resource Metadata document; a request without a token gets
// 401 with a WWW-Authenticate challenge naming that document, a token
// without todos:read gets 403, and add_todo called with a token lacking
// todos:write gets 403 insufficient_scope naming it (step-up).
//
// For development the server accepts one static token, read from the
// environment variable RESTAPI_TOKEN (or made up and logged when it is
// unset), with both scopes (oauth.StaticTokens). In production verify
// signed tokens from your authorization server instead, with package
// jwtauth (a module of its own):
//
//	verifier, err := jwtauth.New(jwtauth.Config{Issuer: "https://auth.example.com"})
//
// It imports five mcpwire packages: mcp, tool and mcphttp, as every server
// over HTTP does, and oauth and auth for the token check. restapi_test.go
// starts a fake to-do API and the server on loopback ports and calls the
// tools over HTTP with and without tokens.
package main
