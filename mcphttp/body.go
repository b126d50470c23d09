package mcphttp

import (
	"errors"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// firstBodyRead is the room a body is first read into: a body grows its
// buffer (and the admission room it holds) as it arrives, doubling, so
// that a client that declares a large body and sends it slowly, or never,
// holds no more than this and twice what it sent.
const firstBodyRead = 4 << 10

// readBody reads the POST body within Options.MaxBodyBytes (a larger one
// gets 413, and what is left of it is not read), holding admission room
// for the buffer as it grows (503 when MaxRequestBytes are held), and by
// its deadline, which the watchdog keeps: BodyTimeout after it began, plus
// a second for every MinBodyRate bytes received (408 past it, with the
// connection closed).
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request, t *ticket) ([]byte, bool) {
	capBytes, want := h.opts.MaxBodyBytes, r.ContentLength // want: -1 when not declared
	bound := capBytes + 1                                  // an undeclared body is read one byte past the cap to tell it is too large
	if want >= 0 {
		bound = want // within max: see servePost
	}
	var watch *watch // the watchdog's view of this request (BodyTimeout, MinBodyRate)
	if bw, ok := w.(*boundedWriter); ok {
		watch = &bw.watch
		watch.beginRead(time.Now())
		defer watch.endRead()
	}
	var buf []byte
	for int64(len(buf)) < bound {
		if len(buf) == cap(buf) {
			next := min(max(2*int64(cap(buf)), firstBodyRead), bound)
			if !t.grow(next - int64(cap(buf))) {
				h.bodyOverloaded(w, r)
				return nil, false
			}
			nb := make([]byte, len(buf), next)
			copy(nb, buf)
			buf = nb
		}
		n, err := r.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if watch != nil {
			watch.received.Store(int64(len(buf)))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			h.bodyFailed(w, err)
			return nil, false
		}
	}
	if int64(len(buf)) > capBytes {
		h.tooLarge(w)
		return nil, false
	}
	return buf, true
}

// bodyFailed answers a body that could not be read: 408 when it did not
// arrive in time, 400 otherwise (the client sent a broken body, or left).
func (h *Handler) bodyFailed(w http.ResponseWriter, err error) {
	w.Header().Set("Connection", "close")
	if errors.Is(err, os.ErrDeadlineExceeded) {
		h.log.Warn("mcphttp: request refused", "category", "body too slow", "timeout", h.opts.BodyTimeout,
			"min_rate", h.opts.MinBodyRate, "status", http.StatusRequestTimeout)
		writeError(w, http.StatusRequestTimeout, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest,
			"invalid request: the body did not arrive in time (the server's BodyTimeout and MinBodyRate)")
		return
	}
	writeError(w, http.StatusBadRequest, jsonrpc.ID{}, jsonrpc.CodeParseError, "parse error: the request body could not be read")
}

// bodyOverloaded answers a body refused room to grow: the bodies being
// read and the POSTs in flight hold MaxRequestBytes. The rest of the body
// is not read.
func (h *Handler) bodyOverloaded(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Connection", "close")
	h.overloaded(w, r, jsonrpc.ID{}, "", limitRequestBytes)
}
