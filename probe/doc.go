// Package probe lets a host ask a side-effecting tool, with nothing
// executed, which access a call would need, and then apply its own approval
// policy before running the call for real.
//
// # Wire contract
//
// The keys are mcpwire's own (prefix "forge."), spelled exactly:
//
//   - A host sends a probe as an ordinary tools/call whose params._meta
//     holds "forge.permission_patterns": true ([PermissionPatternsKey]).
//   - The reply is an ordinary CallToolResult with empty content and the
//     patterns in _meta:
//     {"content": [], "_meta": {"forge.patterns": ["write:a.txt"], "forge.always": []}}.
//     "forge.patterns" ([PatternsKey]) holds the patterns that depend on
//     the arguments; "forge.always" ([AlwaysKey]) those that hold whatever
//     the arguments are.
//   - A tool that answers probes advertises "_meta":
//     {"forge.supports_permission_patterns": true} ([SupportsKey]) in
//     tools/list. Tools without side effects do not, and hosts do not probe
//     them.
//
// # Guarantees
//
// The arguments of a probe are validated exactly as those of a real call
// (the server does it before any handler or middleware runs), so invalid
// arguments give the same isError result and no patterns. [Wrap] runs the
// tool's pattern function instead of its handler, so a probe never runs the
// tool's side effects. [Guard] refuses a probe sent to a tool that does not
// support probing with a JSON-RPC error -32602 (invalid params), and the
// tool does not run. A value of "forge.permission_patterns" other than true
// or false is refused with -32602 too, so that a mistyped probe cannot run
// the tool either; so is a near miss of the key, one that differs from it
// only in case or in white space around it ("Forge.permission_patterns",
// " forge.permission_patterns "), naming the exact key, and so are a
// repeated key and a _meta that is not an object ([Guard]). Only
// "forge.permission_patterns" is read from a request: the other keys belong
// in replies and tools/list, and mean nothing in a request's _meta.
//
// File patterns name real files: [Root.File] resolves the symbolic links
// inside the root, and refuses one that leads out. The pattern describes the
// file system when the probe ran, so a tool should open its files with
// [Root.OpenFile] and [Root.MkdirAll], which follow no link at all: a link
// swapped in between the probe and the real call makes the call fail
// instead of reaching a file the host did not approve.
//
// # Pattern grammar
//
// A pattern is "<verb>:<target>": the verb, a colon, and the target, which
// runs to the end of the string and may itself hold colons. There are five
// verbs:
//
//	read:<path>     read a file or directory under the server's root
//	write:<path>    create or change a file or directory under the root
//	delete:<path>   remove a file or directory under the root
//	exec:<program>  run a program
//	net:<host>[:<port>]  connect to a host
//
// Targets are canonical, so that a host policy can match them as text:
//
//   - <path> is relative to the server's root ([Root]), cleaned, with
//     forward slashes: "notes/todo.txt", or "." for the root itself. No
//     "." or ".." element, no leading, trailing or doubled slash. A path
//     that leaves the root is an error (an isError result), never a pattern.
//   - <program> is a bare name looked up in PATH ("git"), kept as given, or
//     a cleaned absolute path ("/usr/bin/git").
//   - <host> is a lower-cased ASCII host name without a trailing dot
//     ("api.example.com"), an IPv4 address ("192.0.2.1") or an IPv6
//     address in brackets ("[2001:db8::1]"), each in canonical form. The
//     port is kept when known, in decimal without leading zeros: a policy
//     may allow a host on one port and not another. [URL] makes a scheme's
//     default port explicit (https://Example.com/ gives
//     "net:example.com:443"), so two spellings of one address give one
//     pattern.
//   - No target holds an ASCII control character.
//
// Each list of a reply is sorted in byte order and holds no duplicates, and
// a pattern of "forge.always" is not repeated in "forge.patterns". The
// same arguments therefore always give the same reply.
package probe
