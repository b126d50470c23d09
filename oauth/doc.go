// Package oauth makes an MCP HTTP endpoint an OAuth 2.1 resource server,
// as the MCP authorization specification (2025-06-18 onward) asks: every
// request carries a bearer token, a Verifier checks it and names the
// caller (an auth.Principal, which reaches every handler), and a client
// without a usable token is told where to get one through the Protected
// Resource Metadata document (RFC 9728).
package oauth
