package jsonrpc

import (
	"bytes"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// foldDepth is the depth down to which keys that differ only in case make
// a message invalid: the envelope (1) and the objects that are the values
// of its members, params above all (2). See the package documentation.
const foldDepth = 2

// Decode decodes one framed message. It never panics. A message that cannot
// be decoded gives a *DecodeError carrying the code to answer with (-32700
// when the bytes are not JSON, -32600 when they are JSON but not a valid
// message) and the message's id when it could be read: a message nested too
// deep carries the top-level id read before the nesting went too deep, and a
// message with two top-level ids carries neither, as which one was meant is
// unknown.
//
// The returned message may alias data; the caller must not modify data
// afterwards.
func Decode(data []byte) (Message, error) {
	first := jsonx.FirstByte(data)
	// The elements of a batch are decoded, and their keys checked, one by
	// one below.
	s := jsonx.Scanner{CheckKeys: first == '{', FoldDepth: foldDepth, Collect: true}
	end, ok := s.Scan(data)
	if !ok {
		if s.TooDeep {
			// The members of the envelope read before the nesting went too
			// deep are known: an id that came first is answered.
			id, _ := readEnvelope(data, &s).readID(data)
			return nil, invalid(id, "%v", jsonx.ErrTooDeep)
		}
		return nil, &DecodeError{Err: NewError(CodeParseError, "parse error: invalid JSON at byte %d", end)}
	}
	switch first {
	case '[':
		return decodeBatch(data)
	case '{':
		return decodeObject(data, &s)
	}
	return nil, invalid(ID{}, "a message must be a JSON object")
}

func invalid(id ID, format string, args ...any) *DecodeError {
	return &DecodeError{ID: id, Err: NewError(CodeInvalidRequest, "invalid request: "+format, args...)}
}

// decodeObject builds a message from a scanned top-level object.
func decodeObject(data []byte, s *jsonx.Scanner) (Message, error) {
	t := readEnvelope(data, s)
	raw := func(sp jsonx.Span) []byte { return data[sp.Start:sp.End] }
	f := failer{idOK: true}
	if t.has&hasID != 0 {
		f.id, f.idOK = t.readID(data)
	}
	if e := s.RepeatedKey(data); e != nil {
		return f.fail("%v", e)
	}
	if t.has&hasJSONRPC == 0 {
		return f.fail(`missing "jsonrpc": "2.0"`)
	}
	if v := raw(t.jsonrpc); string(v) != `"2.0"` {
		return f.fail(`"jsonrpc" must be "2.0", got %s`, clip.Bytes(v))
	}
	if !f.idOK {
		return f.fail("id must be a string or an integer, got %s", clip.Bytes(raw(t.id)))
	}
	if t.has&hasMethod == 0 {
		return decodeResponse(data, &t, f)
	}
	if t.has&(hasResult|hasError) != 0 {
		return f.fail(`a request cannot carry "result" or "error"`)
	}
	method, ok := decodeMethod(raw(t.method))
	if !ok {
		return f.fail(`"method" must be a string`)
	}
	var params json.RawMessage
	if t.has&hasParams != 0 {
		p := raw(t.params)
		switch p[0] {
		case '{', '[':
			params = p
		case 'n': // null params are taken as absent
		default:
			return f.fail(`"params" must be an object`)
		}
	}
	if t.has&hasID == 0 {
		return &Notification{Method: method, Params: params}, nil
	}
	return &Request{ID: f.id, Method: method, Params: params}, nil
}

// failer builds the error for an invalid message, with its id when the id
// could be read.
type failer struct {
	id   ID
	idOK bool
}

func (f failer) fail(format string, args ...any) (Message, error) {
	e := invalid(ID{}, format, args...)
	if f.idOK {
		e.ID = f.id
	}
	return nil, e
}

// commonMethods are returned without allocating a new string.
var commonMethods = []string{
	"tools/call", "tools/list", "ping", "initialize", "notifications/initialized",
	"notifications/cancelled", "notifications/progress", "server/discover",
	"subscriptions/listen", "logging/setLevel",
}

// decodeMethod decodes a method name token.
func decodeMethod(tok []byte) (string, bool) {
	if len(tok) < 2 || tok[0] != '"' {
		return "", false
	}
	body := tok[1 : len(tok)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		for _, m := range commonMethods {
			if string(body) == m {
				return m, true
			}
		}
		return string(body), true
	}
	var method string
	if json.Unmarshal(tok, &method) != nil {
		return "", false
	}
	return method, true
}

func decodeResponse(data []byte, t *envelope, f failer) (Message, error) {
	hasRes, hasErr := t.has&hasResult != 0, t.has&hasError != 0
	if hasRes == hasErr {
		return f.fail(`a message needs "method", or exactly one of "result" and "error"`)
	}
	if hasRes {
		if t.has&hasID == 0 {
			return f.fail("a result response needs an id")
		}
		return &Response{ID: f.id, Result: json.RawMessage(data[t.result.Start:t.result.End])}, nil
	}
	var e Error
	errRaw := data[t.error.Start:t.error.End]
	if errRaw[0] != '{' || json.Unmarshal(errRaw, &e) != nil {
		return f.fail(`"error" must be an object with an integer "code" and a "message"`)
	}
	return &Response{ID: f.id, Error: &e}, nil
}

// decodeBatch decodes each element of a JSON array.
func decodeBatch(data []byte) (Message, error) {
	var elems []json.RawMessage
	if err := json.Unmarshal(data, &elems); err != nil {
		return nil, &DecodeError{Err: NewError(CodeParseError, "parse error: %v", err)}
	}
	if len(elems) == 0 {
		return nil, invalid(ID{}, "empty batch")
	}
	b := make(Batch, len(elems))
	for i, e := range elems {
		if jsonx.FirstByte(e) != '{' {
			b[i].Err = invalid(ID{}, "a batch element must be a JSON object")
			continue
		}
		m, err := Decode(e)
		if err != nil {
			b[i].Err = err.(*DecodeError)
			continue
		}
		b[i].Msg = m
	}
	return b, nil
}
