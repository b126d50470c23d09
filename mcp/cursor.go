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
// both under a per-server random key.
const cursorLen = 8 + 4 + 8

func (s *Server) makeCursor(gen uint64, offset int) string {
	var b [cursorLen]byte
	binary.BigEndian.PutUint64(b[0:8], gen)
	binary.BigEndian.PutUint32(b[8:12], uint32(offset))
	copy(b[12:], s.cursorMAC(b[:12]))
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// parseCursor returns the offset a cursor points at. The empty cursor is the
// first page.
func (s *Server) parseCursor(cursor string, gen uint64) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(cursor)
	if err != nil || len(b) != cursorLen || !hmac.Equal(b[12:], s.cursorMAC(b[:12])) {
		return 0, errBadCursor
	}
	if binary.BigEndian.Uint64(b[0:8]) != gen {
		return 0, errors.New("stale cursor: the tool list changed; list again from the start")
	}
	return int(binary.BigEndian.Uint32(b[8:12])), nil
}

func (s *Server) cursorMAC(data []byte) []byte {
	m := hmac.New(sha256.New, s.cursorKey[:])
	m.Write(data)
	return m.Sum(nil)[:8]
}
