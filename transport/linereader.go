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
	var buf []byte
	started := false
	for {
		chunk, err := lr.br.ReadSlice('\n')
		// Checked per chunk so that an oversize line of spaces, which is
		// never held whole, is still known to be blank.
		l.blank = l.blank && isBlank(chunk)
		switch {
		case l.oversize:
			// Discard until the newline; the prefix is already kept.
		case len(buf)+len(chunk) > lr.max+2: // room for "\r\n"
			l.oversize = true
			keep := append(buf, chunk...)
			if len(keep) > peekBytes {
				keep = keep[:peekBytes]
			}
			buf = append([]byte(nil), keep...)
		case !started && err == nil:
			buf = append(make([]byte, 0, len(chunk)), chunk...)
		default:
			buf = append(buf, chunk...)
		}
		started = true
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !(errors.Is(err, io.EOF) && len(buf) > 0) {
			return l, err
		}
		l.data = trimEOL(buf)
		if l.oversize {
			l.data = buf
		} else if len(l.data) > lr.max {
			l.oversize = true
			if len(l.data) > peekBytes {
				l.data = l.data[:peekBytes]
			}
		}
		return l, nil
	}
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
