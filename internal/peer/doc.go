// Package peer holds nothing itself: its subpackages are the other side of
// the wire, kept together so that they can be made public as one group.
//
//   - client: a client of both eras over any transport.Conn.
//   - httpconn: the Streamable HTTP client transport, with resumption.
//   - review: the contract reviewer of another server's descriptors and results.
//   - check: the engine of `mcpwire check`, on top of client and review.
//   - golden: the golden-transcript engine that mcptest and `mcpwire replay` use.
//
// They import the wire model and the leaf helpers, never the server.
package peer
