package mcp

import (
	"crypto/hmac"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"math"
)

// errBadCursor covers malformed, tampered and foreign cursors alike.
var errBadCursor = errors.New("invalid cursor")

// A cursor is base64url(n | id | tag | offset | MAC): n and id name the
// state key that made it (see StateKey), tag is the 8-byte listTag of what
// the caller saw, offset is a uvarint, and MAC is the first 8 bytes of an
// HMAC-SHA256, under the key's cursor key, over the list's kind and all
// that precedes it. A cursor of one list is never valid for another, and
// it is valid on every server that holds its key and lists the same
// entries: it says nothing of the process that made it.
const (
	cursorTagLen = 8
	cursorMACLen = 8
	// maxCursorLen bounds a cursor's bytes: the longest ID and offset.
	maxCursorLen = 1 + maxStateKeyIDLen + cursorTagLen + binary.MaxVarintLen32 + cursorMACLen
)

// The lists a cursor can page.
const (
	listTools     = 't'
	listResources = 'r'
	listTemplates = 'u'
	listPrompts   = 'p'
	listExtension = 'x' // an extension's list (see Page), told apart by its tag
)

// listNames name the lists in the stale-cursor message.
var listNames = map[byte]string{listTools: "tool", listResources: "resource", listTemplates: "resource template", listPrompts: "prompt", listExtension: "extension's"}

func (s *Server) makeCursor(list byte, tag listTag, offset int) string {
	k := s.keys.sealing
	var buf [maxCursorLen]byte
	b := append(buf[:0], byte(len(k.id)))
	b = append(b, k.id...)
	b = append(b, tag[:]...)
	b = binary.AppendUvarint(b, uint64(offset))
	b = appendCursorMAC(b, k, list, b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// parseCursor returns the offset a cursor of list points at, for a caller
// who sees what tag names. The empty cursor is the first page.
func (s *Server) parseCursor(list byte, cursor string, tag listTag) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	var buf [maxCursorLen]byte
	if len(cursor) > base64.RawURLEncoding.EncodedLen(maxCursorLen) {
		return 0, errBadCursor
	}
	n, err := base64.RawURLEncoding.Strict().Decode(buf[:], []byte(cursor))
	b := buf[:n]
	if err != nil || n == 0 || len(cursor) != base64.RawURLEncoding.EncodedLen(n) || b[0] > maxStateKeyIDLen { // the decoder skips newlines
		return 0, errBadCursor
	}
	idEnd := 1 + int(b[0])
	body := idEnd + cursorTagLen
	if n < body+1+cursorMACLen {
		return 0, errBadCursor
	}
	k := s.keys.key(b[1:idEnd])
	if k == nil {
		return 0, errBadCursor
	}
	offset, used := binary.Uvarint(b[body : n-cursorMACLen])
	var mac [32]byte
	if used != n-cursorMACLen-body || offset > math.MaxInt32 ||
		!hmac.Equal(b[n-cursorMACLen:], appendCursorMAC(mac[:0], k, list, b[:n-cursorMACLen])) {
		return 0, errBadCursor
	}
	if listTag(b[idEnd:body]) != tag {
		return 0, errors.New("stale cursor: the " + listNames[list] + " list changed; list again from the start")
	}
	return int(offset), nil
}

// appendCursorMAC appends the MAC of a cursor of list whose other bytes
// are data.
func appendCursorMAC(dst []byte, k *stateKey, list byte, data []byte) []byte {
	m := k.mac()
	m.Write([]byte{list})
	m.Write(data)
	var sum [32]byte
	return append(dst, m.Sum(sum[:0])[:cursorMACLen]...)
}

// pageOf returns the page of list that cursor asks for, each entry in its
// wire form, and the next page's cursor: the one body of every */list
// method. snap is the snapshot list came from; list is snap's whole list
// or, for a caller who may see only some entries, those entries in the
// snapshot's order, and cursors are bound to what the caller sees.
func pageOf[E listed, W any](s *Server, kind byte, cursor *string, list []E, snap *listSnapshot[E], wire func(E) W) ([]W, *string, error) {
	var tag listTag
	if (cursor != nil && *cursor != "") || len(list) > s.opts.PageSize {
		tag = snap.tag(list) // a single page needs no cursor either way
	}
	start, end, next, err := s.page(kind, cursor, tag, len(list))
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
// items that tag names, and the next page's cursor (nil on the last).
func (s *Server) page(list byte, cursor *string, tag listTag, n int) (start, end int, next *string, err error) {
	var c string
	if cursor != nil {
		c = *cursor
	}
	start, err = s.parseCursor(list, c, tag)
	if err != nil || start > n {
		if err == nil {
			err = errBadCursor
		}
		return 0, 0, nil, invalidParams("%v", err)
	}
	end = min(start+s.opts.PageSize, n)
	if end < n {
		nc := s.makeCursor(list, tag, end)
		next = &nc
	}
	return start, end, next, nil
}
