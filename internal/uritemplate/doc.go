// Package uritemplate parses RFC 6570 URI templates, matches concrete uris
// against them and expands them, for MCP resource templates: a server
// advertises a template such as test://template/{id}/data or
// file:///{+path} in resources/templates/list, and resources/read of a
// concrete uri goes to the first registered template whose Match accepts
// it, with the values Match found.
//
// # Templates
//
// Parse accepts RFC 6570 level 4 syntax: literals, and expressions with
// the operators none, "+", "#", ".", "/", ";", "?" and "&", lists of
// variables separated by ",", the prefix modifier ":n" (n from 1 to 9999)
// and the explode modifier "*". A variable name is ALPHA, DIGIT, "_" and
// pct-encoded triplets, with single dots between. Parse also refuses a
// template that is empty, longer than MaxTemplateLength bytes, names more
// than MaxVars variables, or names one variable twice.
//
// # Values
//
// A value is a string. A variable missing from a values map is undefined:
// Expand leaves it out, as RFC 6570 does. An exploded variable holds a
// list, written in one string as its items joined by "/" for {/var*}, "."
// for {.var*} and "," for every other operator (so {?tag*} with
// "a,b" expands to ?tag=a&tag=b); Expand splits the value there, so an
// item cannot hold that separator. Associative arrays are not supported,
// nor lists in unexploded variables: {list} with "a,b" expands to
// a%2Cb.
//
// # Matching
//
// Match accepts a uri when the whole of it is one that the template
// expands to, by these rules:
//
//   - Literals match byte for byte, with two exceptions: an RFC 3986
//     scheme at the start of a template (up to the first ":") matches in
//     any ASCII case, and so do the hex digits of a pct-encoded triplet in
//     a literal ("%2f" matches "%2F"). Nothing else is normalised: "%41"
//     does not match a literal "A", nor "%C3%A9" a literal "é"; hosts and
//     paths are case-sensitive, and a trailing "/" is in the uri only if
//     it is in the template.
//   - A character of a value is an unreserved character (ALPHA, DIGIT,
//     "-", ".", "_", "~"), a pct-encoded UTF-8 character, or a non-ASCII
//     character (RFC 3987 ucschar or iprivate) written raw, as in an IRI.
//   - {var} and {var:n}: one or more such characters, so never "/", "?",
//     "#" or any other reserved character unencoded.
//   - {+var} and {#var}: one or more characters that are these or
//     reserved characters, except "#", and except "?" in the path part of
//     the template (before its first literal "?" or "#" and its first
//     {?…}, {&…} or {#…} expression): a variable spans path segments but
//     never runs into a query or a fragment the template does not have.
//     {#var} starts with "#".
//   - {.var}: "." and a value as {var}'s, which may hold more dots:
//     file{.ext} gives "tar.gz" for file.tar.gz.
//   - {/var}: "/" and one segment as {var}'s; {/var*}: one or more, the
//     value their text joined by "/"; {var*}: one or more values joined by
//     ","; {+var*}, {#var*} and {.var*} match as without "*".
//   - The variables of an unnamed expression ({x,y}, {/x,y}, …) are all
//     required, separated as Expand separates them.
//   - {;x,y}, {?x,y} and {&x,y}: parameters name=value (or just name, an
//     empty value, for any of the three), in any order, each at most once
//     unless exploded, when the repeats' values are joined by ",". Any
//     parameter may be absent; Match then leaves it out of the map. A
//     value may be empty. "+" is not a space. {?x,y} needs "?" before the
//     first parameter and "&" between them, and "?" alone does not match.
//   - Ambiguity: when a uri can be split between variables in several
//     ways, the first variable takes the longest value that lets the rest
//     match, then the next: {+dir}/{file} on a/b/c gives dir "a/b" and
//     file "c"; {a}{b} on xyz gives "xy" and "z".
//   - {var:n}: a value of at most n characters, counted after decoding.
//     The limit is checked on the split the previous rule chose, which is
//     not revised to satisfy it: {a:1}{b} does not match xyz.
//   - Values are percent-decoded. A "%" that does not start a pct-encoded
//     UTF-8 character (%zz, %4 at the end, %FF, an overlong or surrogate
//     sequence) makes the uri not match; hex digits match in either case.
//   - An item of {/var*} may not hold an encoded "/" (%2F), nor an item of
//     {var*}, {;var*}, {?var*} or {&var*} an encoded "," (%2C), so that a
//     value splits back into the uri's items; such a uri does not match.
//   - A uri longer than MaxURILength bytes, not valid UTF-8, or holding a
//     raw non-ASCII character that is not ucschar or iprivate (such as
//     U+0085 or U+FFFD) matches no template.
//
// # Values are data
//
// Match does not interpret what it decodes: "%2F" gives "/" in a {var}
// value, "%2E%2E" gives "..", "%00" gives a NUL byte, and dot segments are
// neither resolved nor refused. A handler must treat values as data, not
// as paths or names it trusts. In the value of {var}, {.var} or {/var}, a
// "/" can only have come from %2F, so a handler that wants one segment
// refuses a value for which strings.Contains(v, "/") is true; one that
// maps {+path} to a file must clean the path and check that it stays
// under its root.
//
// # Cost
//
// A Template matches through one RE2 regexp (package regexp), so Match
// takes time linear in the length of the uri times the size of the
// template, never backtracking: on a 64 KiB uri, about 2 ms for
// test://template/{id}/data or file:///{+path}, 8 ms for {+a}/{+b}, and
// under 100 ms for MaxVars adjacent ambiguous variables. Parse compiles
// the regexp, in a fraction of a millisecond.
package uritemplate
