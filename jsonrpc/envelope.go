package jsonrpc

import (
	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// envelope records where the envelope members of a top-level object are.
type envelope struct {
	jsonrpc, id, method, params, result, error jsonx.Span
	has                                        uint8 // bit set of present members
	idRepeated                                 bool  // "id" appeared more than once
}

const (
	hasJSONRPC uint8 = 1 << iota
	hasID
	hasMethod
	hasParams
	hasResult
	hasError
)

// readEnvelope finds the envelope members among the top-level members a
// scan of data recorded (all of them, or those read before it stopped).
func readEnvelope(data []byte, s *jsonx.Scanner) (t envelope) {
	for i := range s.NumMembers() {
		m := s.Member(i)
		key := m.Key.Content(data)
		if m.Key.Escaped {
			// "\u0069d" names the same member as "id": match the decoded
			// text.
			key = []byte(m.Key.Text(data))
		}
		var bit uint8
		switch string(key) {
		case "jsonrpc":
			bit, t.jsonrpc = hasJSONRPC, m.Value
		case "id":
			if t.has&hasID != 0 {
				t.idRepeated = true
			}
			bit, t.id = hasID, m.Value
		case "method":
			bit, t.method = hasMethod, m.Value
		case "params":
			bit, t.params = hasParams, m.Value
		case "result":
			bit, t.result = hasResult, m.Value
		case "error":
			bit, t.error = hasError, m.Value
		}
		t.has |= bit
	}
	return t
}

// readID returns the top-level id recorded by a scan of data, which may be
// only a prefix of the message. ok is false when there is no id to answer
// with: it is absent, not a string or an integer, given twice (which one
// the sender meant is unknown, so neither is used), or a number that runs
// to the end of data, where more digits may have been cut off.
func (t envelope) readID(data []byte) (id ID, ok bool) {
	if t.has&hasID == 0 || t.idRepeated {
		return ID{}, false
	}
	tok := data[t.id.Start:t.id.End]
	if t.id.End == len(data) && tok[0] != '"' {
		return ID{}, false
	}
	return parseID(tok)
}

// OversizeError returns the error that answers a message longer than
// limit bytes, of which only prefix (its first bytes) was kept: -32600,
// with the message's top-level id when prefix holds it in full. The id is
// read as Decode reads it (escaped keys match, a repeated id gives none)
// from the members that end before the prefix does.
func OversizeError(prefix []byte, limit int) *DecodeError {
	var id ID
	if jsonx.FirstByte(prefix) == '{' {
		s := jsonx.Scanner{Collect: true}
		s.Scan(prefix) // stops at the cut; the members before it are recorded
		id, _ = readEnvelope(prefix, &s).readID(prefix)
	}
	return invalid(id, "message exceeds the %d-byte limit", limit)
}
