package mcp

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
)

// errBadCursor covers malformed, tampered and stale cursors alike.
var errBadCursor = errors.New("invalid cursor")

// A cursor is base64url(generation | offset | MAC), with an 8-byte
// generation, a 4-byte offset and the first 8 bytes of an HMAC-SHA256 over
// the list it pages and both numbers, under a per-server random key: a
// cursor of one list is never valid for another.
const cursorLen = 8 + 4 + 8

// The lists a cursor can page.
const (
	listTools     = 't'
	listResources = 'r'
	listTemplates = 'u'
	listPrompts   = 'p'
)

// listNames name the lists in the stale-cursor message.
var listNames = map[byte]string{listTools: "tool", listResources: "resource", listTemplates: "resource template", listPrompts: "prompt"}

func (s *Server) makeCursor(list byte, gen uint64, offset int) string {
	var b [cursorLen]byte
	binary.BigEndian.PutUint64(b[0:8], gen)
	binary.BigEndian.PutUint32(b[8:12], uint32(offset))
	copy(b[12:], s.cursorMAC(list, b[:12]))
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// parseCursor returns the offset a cursor of list points at. The empty
// cursor is the first page.
func (s *Server) parseCursor(list byte, cursor string, gen uint64) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(cursor)
	if err != nil || len(b) != cursorLen || !hmac.Equal(b[12:], s.cursorMAC(list, b[:12])) {
		return 0, errBadCursor
	}
	if binary.BigEndian.Uint64(b[0:8]) != gen {
		return 0, errors.New("stale cursor: the " + listNames[list] + " list changed; list again from the start")
	}
	return int(binary.BigEndian.Uint32(b[8:12])), nil
}

func (s *Server) cursorMAC(list byte, data []byte) []byte {
	m := hmac.New(sha256.New, s.cursorKey[:])
	m.Write([]byte{list})
	m.Write(data)
	return m.Sum(nil)[:8]
}

// pageOf returns the page of list (at generation gen) that cursor asks for,
// each entry in its wire form, and the next page's cursor: the one body of
// every */list method.
func pageOf[E, W any](s *Server, kind byte, cursor *string, list []E, gen uint64, wire func(E) W) ([]W, *string, error) {
	start, end, next, err := s.page(kind, cursor, gen, len(list))
	if err != nil {
		return nil, nil, err
	}
	out := make([]W, 0, end-start)
	for _, e := range list[start:end] {
		out = append(out, wire(e))
	}
	return out, next, nil
}

// page returns the bounds of the page a cursor asks for in a list of n
// items at generation gen, and the next page's cursor (nil on the last).
func (s *Server) page(list byte, cursor *string, gen uint64, n int) (start, end int, next *string, err error) {
	var c string
	if cursor != nil {
		c = *cursor
	}
	start, err = s.parseCursor(list, c, gen)
	if err != nil || start > n {
		if err == nil {
			err = errBadCursor
		}
		return 0, 0, nil, invalidParams("%v", err)
	}
	end = min(start+s.opts.PageSize, n)
	if end < n {
		nc := s.makeCursor(list, gen, end)
		next = &nc
	}
	return start, end, next, nil
}
