// Package version holds mcpwire's own version, which the root package
// exports and package mcp reports for a server that sets none.
package version

// Version is mcpwire's version: the next release while it is being made
// (a "-dev" suffix), the release itself in a tagged commit. It changes
// with each release, as CHANGELOG.md records.
const Version = "0.1.0-dev"
