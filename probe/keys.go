package probe

// The _meta keys of the permission-probe wire contract. They are mcpwire's
// own (prefix "forge."), so hosts and servers must spell them exactly.
const (
	// PermissionPatternsKey, set to true in params._meta of tools/call,
	// asks for the call's permission patterns instead of running it. It is
	// the only key read from a request; a near miss of it (another case,
	// white space around it) is refused rather than ignored ([Guard]).
	PermissionPatternsKey = "forge.permission_patterns"
	// PatternsKey holds, in a probe reply's _meta, the patterns that
	// depend on the call's arguments.
	PatternsKey = "forge.patterns"
	// AlwaysKey holds, in a probe reply's _meta, the patterns a call needs
	// whatever its arguments are.
	AlwaysKey = "forge.always"
	// SupportsKey, set to true in a tool's _meta in tools/list, says the
	// tool answers probes.
	SupportsKey = "forge.supports_permission_patterns"
)
