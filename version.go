package mcpwire

import "github.com/mcpwire/mcpwire/internal/version"

// Version is the version of mcpwire itself (semantic versioning; "-dev"
// between releases). A server whose mcp.Implementation leaves Version
// empty reports it as its own version.
const Version = version.Version
