package mcphttp

import (
	"net/http"
	"strconv"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// sseStream writes Server-Sent Events, flushing each one. Every event has
// an id: on a 2026-07-28 stream (not resumable) a number increasing from 1;
// on a legacy session's stream the id its EventStore gave (see stored).
type sseStream struct {
	w    http.ResponseWriter
	rc   *http.ResponseController
	next uint64
	buf  []byte
}

// openSSE writes the headers of an event stream and flushes them.
func openSSE(w http.ResponseWriter) *sseStream {
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	s := &sseStream{w: w, rc: http.NewResponseController(w)}
	_ = s.rc.Flush()
	return s
}

// event writes one message as a "message" event.
func (s *sseStream) event(m jsonrpc.Message) error {
	s.next++
	b := append(s.buf[:0], "id: "...)
	b = strconv.AppendUint(b, s.next, 10)
	b = append(b, "\nevent: message\ndata: "...)
	b, err := jsonrpc.AppendMessage(b, m)
	if err != nil {
		return nil // not encodable: skipped, as a stream would drop it
	}
	b = append(b, "\n\n"...)
	s.buf = b
	return s.write(b)
}

// storedEvent writes one message event whose data (an encoded message) was
// appended to the session's event store as id; an empty id (the store
// failed) writes the event without one.
func (s *sseStream) storedEvent(id string, data []byte) error {
	b := s.buf[:0]
	if id != "" {
		b = append(b, "id: "...)
		b = append(b, id...)
		b = append(b, '\n')
	}
	b = append(b, "event: message\ndata: "...)
	b = append(b, data...)
	b = append(b, "\n\n"...)
	s.buf = b
	return s.write(b)
}

// priming writes the event of SSE polling (2025-11-25) that a stream the
// server closes early begins with: an id and empty data, so that the client
// has an event id to resume from, and the retry hint (milliseconds) it must
// wait before reconnecting. With an empty id only the hint is written (a
// field-only block, which clients do not dispatch as an event).
func (s *sseStream) priming(id string, retry time.Duration) error {
	b := s.buf[:0]
	if id != "" {
		b = append(b, "id: "...)
		b = append(b, id...)
		b = append(b, '\n')
	}
	b = append(b, "retry: "...)
	b = strconv.AppendInt(b, retry.Milliseconds(), 10)
	b = append(b, '\n')
	if id != "" {
		b = append(b, "data: \n"...)
	}
	b = append(b, '\n')
	s.buf = b
	return s.write(b)
}

// comment writes an SSE comment line, which clients ignore.
func (s *sseStream) comment(text string) error {
	return s.write([]byte(": " + text + "\n\n"))
}

// write writes and flushes one block. Every write of a Handler's
// response is bounded by Options.WriteTimeout (see boundedWriter): a
// client that stops reading while keeping its connection open loses its
// stream rather than holding a goroutine forever.
func (s *sseStream) write(b []byte) error {
	if _, err := s.w.Write(b); err != nil {
		return err
	}
	return s.rc.Flush()
}

// writeJSON answers with one JSON-RPC message as application/json.
func writeJSON(w http.ResponseWriter, status int, m jsonrpc.Message) {
	b, err := jsonrpc.Marshal(m)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = jsonrpc.Marshal(&jsonrpc.Response{Error: jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: the response could not be encoded")})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// writeError answers with a JSON-RPC error response (id-less when id is
// the zero ID).
func writeError(w http.ResponseWriter, status int, id jsonrpc.ID, code int64, msg string) {
	writeJSON(w, status, &jsonrpc.Response{ID: id, Error: jsonrpc.NewError(code, "%s", msg)})
}

// statusOf maps a 2026-07-28 response to its HTTP status (the status table of the 2026-07-28 Streamable HTTP transport):
// errors of the request itself are 400, an unknown method 404, a caller
// over its quota (mcp.CodeQuotaExceeded) 429, everything else (results and
// errors of the work asked for) 200.
func statusOf(r *jsonrpc.Response) int {
	if r.Error == nil {
		return http.StatusOK
	}
	switch r.Error.Code {
	case jsonrpc.CodeParseError, jsonrpc.CodeInvalidRequest, jsonrpc.CodeInvalidParams,
		jsonrpc.CodeHeaderMismatch, jsonrpc.CodeMissingRequiredClientCapability,
		jsonrpc.CodeUnsupportedProtocolVersion:
		return http.StatusBadRequest
	case jsonrpc.CodeMethodNotFound:
		return http.StatusNotFound
	case mcp.CodeQuotaExceeded:
		return http.StatusTooManyRequests
	}
	return http.StatusOK
}

// legacyStatus is the status of every legacy response: the request was
// accepted, whatever its JSON-RPC outcome.
func legacyStatus(*jsonrpc.Response) int { return http.StatusOK }
