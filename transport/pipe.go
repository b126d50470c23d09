package transport

import "io"

// Pipe returns two connected Streams over in-memory byte pipes: what one
// writes, the other reads, through the same framing as stdio. It is meant
// for tests and for embedding a server in the same process as its client.
func Pipe(opts Options) (a, b *Stream) {
	ar, bw := io.Pipe()
	br, aw := io.Pipe()
	return NewStream(ar, aw, opts), NewStream(br, bw, opts)
}
