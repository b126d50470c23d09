// Package jsonx holds the JSON helpers under every layer of mcpwire: the
// one JSON scanner, member lookup by exact key, string decoding and
// appending, and the first non-space byte of a value. Package jsonrpc
// decodes messages with it and the schema package's fast path validates
// instances with it, so both read JSON by the same rules.
//
// # The scanner
//
// [Scanner] checks that data is one JSON text as RFC 8259 defines it:
// the grammar, numbers without leading zeros, strings of valid UTF-8 (no
// surrogates or overlong forms encoded in UTF-8) with no control
// characters and only the escapes of RFC 8259, and no byte order mark. Its
// steps ([Open], [Key], [Next], [ScanString], [ScanNumber], [Literal]) and
// its repeated-key check ([KeySet]) are exported for a reader that walks a
// document itself and checks what it finds on the way; Scanner.Skip
// checks a value such a reader does not look into.
//
// Two rules depend on the reader:
//
//   - Escaped surrogates ([Mode]): [Lenient], for the wire, accepts every
//     \uXXXX escape, as encoding/json does (a lone surrogate decodes to
//     U+FFFD); [Pairs], for the schema fast path, accepts an escaped
//     surrogate only as half of a valid pair, as the schema library's
//     decoder does.
//   - Keys: with Scanner.CheckKeys, an object that repeats a key, compared
//     after unescaping ("id" and "\u0069d" are the same key), is reported
//     at any depth; with FoldDepth, two keys that differ only in case
//     (strings.EqualFold: "name" and "Name") are reported too, in the
//     objects nested at most that deep.
//
// # Depth
//
// [MaxDepth] (1000) is the one nesting limit: a value holds at most 1000
// levels of arrays and objects, counting its own. The scanner stops at
// the first value nested deeper and sets Scanner.TooDeep; the verdict's
// text is [ErrTooDeep]. The wire answers such a message with -32600, and
// the schema fast path gives such an instance one violation with that
// text, whatever the schema library would say.
//
// # Trusted data
//
// Scanner.Trusted scans data already known to be valid (params that
// jsonrpc.Decode accepted) on a fast path that finds the end of each
// string with bytes.IndexByte and checks no key; [ParseObject] uses it.
// It never panics on data that breaks the promise.
package jsonx
