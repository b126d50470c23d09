package jsonrpc

import (
	"strconv"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// Marshal encodes a message as one line of compact JSON, without the
// trailing newline.
func Marshal(m Message) ([]byte, error) { return AppendMessage(nil, m) }

// AppendMessage appends the compact JSON encoding of m to buf. Params and
// results are appended as they are; they must already be valid compact JSON.
func AppendMessage(buf []byte, m Message) ([]byte, error) {
	switch m := m.(type) {
	case *Request:
		if !m.ID.IsValid() {
			return buf, NewError(CodeInternalError, "cannot encode a request without an id")
		}
		buf = append(buf, `{"jsonrpc":"2.0","id":`...)
		buf = append(buf, m.ID.raw...)
		buf = append(buf, `,"method":`...)
		buf = jsonx.AppendString(buf, m.Method)
		if m.Params != nil {
			buf = append(buf, `,"params":`...)
			buf = append(buf, m.Params...)
		}
		return append(buf, '}'), nil
	case *Notification:
		buf = append(buf, `{"jsonrpc":"2.0","method":`...)
		buf = jsonx.AppendString(buf, m.Method)
		if m.Params != nil {
			buf = append(buf, `,"params":`...)
			buf = append(buf, m.Params...)
		}
		return append(buf, '}'), nil
	case *Response:
		return appendResponse(buf, m)
	case BatchResponse:
		buf = append(buf, '[')
		for i, r := range m {
			if i > 0 {
				buf = append(buf, ',')
			}
			var err error
			if buf, err = appendResponse(buf, r); err != nil {
				return buf, err
			}
		}
		return append(buf, ']'), nil
	}
	return buf, NewError(CodeInternalError, "cannot encode %T", m)
}

func appendResponse(buf []byte, r *Response) ([]byte, error) {
	if r.Error != nil {
		return appendErrorResponse(buf, r.ID, r.Error), nil
	}
	buf = AppendResponseHead(buf, r.ID)
	if len(r.Result) == 0 {
		buf = append(buf, "{}"...)
	} else {
		buf = append(buf, r.Result...)
	}
	return append(buf, '}'), nil
}

// appendErrorResponse appends the error response to id.
func appendErrorResponse(buf []byte, id ID, e *Error) []byte {
	buf = append(buf, `{"jsonrpc":"2.0"`...)
	buf = appendIDMember(buf, id)
	buf = append(buf, `,"error":{"code":`...)
	buf = strconv.AppendInt(buf, e.Code, 10)
	buf = append(buf, `,"message":`...)
	buf = jsonx.AppendString(buf, e.Message)
	if len(e.Data) > 0 {
		buf = append(buf, `,"data":`...)
		buf = append(buf, e.Data...)
	}
	return append(buf, "}}"...)
}

// AppendResponseHead appends the encoding of a success response to the
// request id up to its result: everything before the result's JSON. The
// head, the result and a closing "}" are the bytes AppendMessage writes
// for &Response{ID: id, Result: result}, and AppendMessage writes every
// success response that way. Writers use it to send a large result from
// its own bytes, without copying it into the line.
func AppendResponseHead(buf []byte, id ID) []byte {
	buf = append(buf, `{"jsonrpc":"2.0"`...)
	buf = appendIDMember(buf, id)
	return append(buf, `,"result":`...)
}

// appendIDMember appends the "id" member, or nothing for the zero ID.
func appendIDMember(buf []byte, id ID) []byte {
	if id.raw == "" {
		return buf
	}
	buf = append(buf, `,"id":`...)
	return append(buf, id.raw...)
}
