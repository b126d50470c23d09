package mcpwire

// Version is the version of mcpwire itself: the release in a tagged commit,
// the next release with a "-dev" suffix between releases (semantic
// versioning; CHANGELOG.md records each one). A server whose
// mcp.Implementation leaves Version empty reports it as its own version,
// and mcpwire's own clients (mcptest, mcpwire check) send it in clientInfo.
const Version = "0.1.0"
