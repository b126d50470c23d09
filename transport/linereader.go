package transport

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// peekBytes is how much of an oversize line is kept to find its id.
const peekBytes = 4 << 10

// line is one framed line. For an oversize line, data holds only its first
// peekBytes bytes.
//
// The prefix of an oversize line never includes its line ending: it is the
// first peekBytes bytes of the line with its "\n" (or "\r\n", or the "\r"
// before io.EOF) removed, exactly what the line would be if it fitted. So the
// same bytes give the same prefix, and so the same id, whether a newline or
// the end of the stream ends the line. Without this rule a number id at the
// very end of a short oversize line ("...,"id":1" then "\n") would be read as
// complete when the newline follows it, and as possibly cut at io.EOF.
type line struct {
	data     []byte
	oversize bool
	blank    bool // the whole line is JSON whitespace
}

// lineReader splits a stream into lines without a fixed buffer limit,
// bounded by max.
type lineReader struct {
	br  *bufio.Reader
	max int
}

// next returns the next non-blank line without its line ending. A last line
// without a newline is returned before io.EOF.
func (lr *lineReader) next() (line, error) {
	for {
		l, err := lr.read()
		if err != nil {
			return l, err
		}
		if !l.blank {
			return l, nil
		}
	}
}

func (lr *lineReader) read() (line, error) {
	l := line{blank: true}
	// A line that fits bufio's buffer is copied once. A longer one is kept
	// as a list of chunk copies and joined once at the end into a buffer of
	// exactly its size: growing one slice by append would allocate about
	// five times the line on the way.
	var chunks [][]byte
	total := 0 // bytes kept in chunks
	read := 0  // bytes of the line read, kept or not
	for {
		chunk, err := lr.br.ReadSlice('\n')
		read += len(chunk)
		// Checked per chunk so that an oversize line of spaces, which is
		// never held whole, is still known to be blank.
		l.blank = l.blank && isBlank(chunk)
		switch {
		case l.oversize:
			// Discard until the newline; the prefix is already kept.
		case total+len(chunk) > lr.max+2: // room for "\r\n"
			l.oversize = true
			// Two bytes more than the prefix, for a line ending that may
			// follow it; see trimPrefix.
			prefix := join(chunks, total, chunk, peekBytes+2)
			chunks, total = [][]byte{prefix}, len(prefix)
		default:
			chunks = append(chunks, append([]byte(nil), chunk...))
			total += len(chunk)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !(errors.Is(err, io.EOF) && total > 0) {
			return l, err
		}
		buf := join(chunks, total, nil, total)
		if l.oversize {
			l.data = trimPrefix(buf, read)
			return l, nil
		}
		l.data = trimEOL(buf)
		if len(l.data) > lr.max {
			l.oversize = true
			l.data = l.data[:min(len(l.data), peekBytes)]
		}
		return l, nil
	}
}

// trimPrefix returns the prefix of an oversize line (see line) from kept,
// its first bytes, of which there are peekBytes+2 unless the whole line, of
// read bytes, is shorter. When kept is the whole line its ending is removed;
// otherwise the line runs on past kept, so its first peekBytes bytes are not
// part of the line ending, which is at most two bytes long.
func trimPrefix(kept []byte, read int) []byte {
	if len(kept) == read {
		kept = trimEOL(kept)
	}
	return kept[:min(len(kept), peekBytes)]
}

// join concatenates chunks and then extra, up to limit bytes. A single
// chunk is returned as it is.
func join(chunks [][]byte, total int, extra []byte, limit int) []byte {
	if len(chunks) == 1 && extra == nil && len(chunks[0]) <= limit {
		return chunks[0]
	}
	out := make([]byte, 0, min(total+len(extra), limit))
	for _, c := range append(chunks, extra) {
		if room := limit - len(out); len(c) > room {
			return append(out, c[:room]...)
		}
		out = append(out, c...)
	}
	return out
}

// isBlank reports whether b holds only JSON whitespace.
func isBlank(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}

// trimEOL removes a trailing "\n" and then a trailing "\r".
func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}
