package main

import (
	"bytes"
	"io"
	"sync"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// sniffer passes the server's stdout through and counts the lines that
// cannot be JSON-RPC (they do not start with '{' or '['), keeping the
// first of them, clipped: the log line or banner a server printed to
// stdout, which the client can only call a parse error. It is safe for
// concurrent use.
type sniffer struct {
	r io.ReadCloser

	mu      sync.Mutex
	start   bool   // at the start of a line, white space skipped so far
	keeping bool   // in the first line that is not JSON, being kept
	first   []byte // the first such line, up to clip.Max+1 bytes
	count   int
}

// newSniffer watches r.
func newSniffer(r io.ReadCloser) *sniffer { return &sniffer{r: r, start: true} }

// Read implements io.Reader.
func (s *sniffer) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range p[:n] {
		s.see(c)
	}
	return n, err
}

// see follows one byte.
func (s *sniffer) see(c byte) {
	if c == '\n' {
		s.start, s.keeping = true, false
		return
	}
	if s.start {
		if c == ' ' || c == '\t' || c == '\r' {
			return
		}
		s.start = false
		if c != '{' && c != '[' {
			s.count++
			s.keeping = s.count == 1
		}
	}
	if s.keeping && len(s.first) <= clip.Max {
		s.first = append(s.first, c)
	}
}

// Close implements io.Closer.
func (s *sniffer) Close() error { return s.r.Close() }

// seen returns the number of lines that were not JSON and the first one.
func (s *sniffer) seen() (int, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count, clip.Bytes(bytes.TrimRight(s.first, "\r"))
}
