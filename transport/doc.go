// Package transport moves JSON-RPC messages over byte streams. It knows
// JSON-RPC framing and nothing of MCP.
//
// Framing is newline-delimited: one compact JSON message per line, UTF-8,
// never pretty-printed. On input a trailing "\r" is tolerated and blank lines
// are skipped. There is no fixed line limit like bufio.Scanner's 64 KiB;
// instead a configurable maximum message size (DefaultMaxMessageBytes,
// 16 MiB) bounds memory: a longer line is answered with an error carrying its
// id when the id appears in the line's first bytes, and is skipped up to the
// next newline without ever being buffered whole.
//
// Output goes through one writer goroutine. Each message is encoded by its
// sender and queued whole, so lines never interleave; messages queued
// together are coalesced into one write system call. WriteNow writes a
// short line on its caller's goroutine instead when nothing is queued and
// the output can take it at once, which saves a wake-up without ever
// waiting for the peer.
//
// Input is read by one reader goroutine, which hands each message to Read,
// or, with Each, calls a function with it on the spot; the function can
// move reading to another goroutine (detach) when its work turns out to
// be long. Each, WriteNow and InputDone make up FastStream, the interface
// a server serves a Stream through.
package transport
