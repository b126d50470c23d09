// Package feature says which protocol revision has which wire feature: one
// function per feature, each asked of a negotiated protocol.Revision and
// false for protocol.RevisionUnknown. The server, the HTTP handler and the
// client all gate on these, so that a new revision or gate is one edit here
// and the revision dates themselves stay in package protocol.
package feature

import "github.com/mcpwire/mcpwire/protocol"

// from reports whether r is known and at or after first.
func from(r, first protocol.Revision) bool { return r >= first && r.Known() }

// ToolAnnotations reports whether tools carry annotations.
func ToolAnnotations(r protocol.Revision) bool { return from(r, protocol.Revision20250326) }

// Audio reports whether audio content blocks exist.
func Audio(r protocol.Revision) bool { return from(r, protocol.Revision20250326) }

// Completions reports whether the server declares the completions
// capability.
func Completions(r protocol.Revision) bool { return from(r, protocol.Revision20250326) }

// ProgressMessage reports whether progress notifications carry a message.
func ProgressMessage(r protocol.Revision) bool { return from(r, protocol.Revision20250326) }

// Batches reports whether JSON-RPC batches are allowed: only in 2025-03-26.
func Batches(r protocol.Revision) bool { return r == protocol.Revision20250326 }

// Structured reports whether tools have outputSchema and results
// structuredContent.
func Structured(r protocol.Revision) bool { return from(r, protocol.Revision20250618) }

// ObjectOutput reports whether outputSchema and structuredContent must be
// JSON objects: in the 2025 revisions that define them. From the first
// modern revision they may be any JSON value.
func ObjectOutput(r protocol.Revision) bool { return Structured(r) && !r.Modern() }

// Titles reports whether tools and Implementation objects carry title.
func Titles(r protocol.Revision) bool { return from(r, protocol.Revision20250618) }

// ResourceLinks reports whether resource_link content blocks exist.
func ResourceLinks(r protocol.Revision) bool { return from(r, protocol.Revision20250618) }

// ContentMeta reports whether content blocks and tools carry _meta, and
// resources lastModified.
func ContentMeta(r protocol.Revision) bool { return from(r, protocol.Revision20250618) }

// VersionHeader reports whether HTTP requests after initialization carry
// the MCP-Protocol-Version header.
func VersionHeader(r protocol.Revision) bool { return from(r, protocol.Revision20250618) }

// SelectEnums reports whether elicitation schemas may hold titled and
// multi-select enumerations.
func SelectEnums(r protocol.Revision) bool { return from(r, protocol.Revision20251125) }

// Icons reports whether icons, Implementation.description and websiteUrl
// exist.
func Icons(r protocol.Revision) bool { return from(r, protocol.Revision20251125) }

// SSEPolling reports whether a Streamable HTTP server may end an SSE stream
// early for the client to reconnect to (with Last-Event-ID).
func SSEPolling(r protocol.Revision) bool { return from(r, protocol.Revision20251125) }
