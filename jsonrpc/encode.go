package jsonrpc

import (
	"strconv"
	"unicode/utf8"
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
		buf = appendString(buf, m.Method)
		if m.Params != nil {
			buf = append(buf, `,"params":`...)
			buf = append(buf, m.Params...)
		}
		return append(buf, '}'), nil
	case *Notification:
		buf = append(buf, `{"jsonrpc":"2.0","method":`...)
		buf = appendString(buf, m.Method)
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
	buf = append(buf, `{"jsonrpc":"2.0"`...)
	if r.ID.raw != "" {
		buf = append(buf, `,"id":`...)
		buf = append(buf, r.ID.raw...)
	}
	if r.Error != nil {
		buf = append(buf, `,"error":{"code":`...)
		buf = appendInt(buf, r.Error.Code)
		buf = append(buf, `,"message":`...)
		buf = appendString(buf, r.Error.Message)
		if len(r.Error.Data) > 0 {
			buf = append(buf, `,"data":`...)
			buf = append(buf, r.Error.Data...)
		}
		return append(buf, "}}"...), nil
	}
	buf = append(buf, `,"result":`...)
	if len(r.Result) == 0 {
		buf = append(buf, "{}"...)
	} else {
		buf = append(buf, r.Result...)
	}
	return append(buf, '}'), nil
}

func appendInt(buf []byte, n int64) []byte { return strconv.AppendInt(buf, n, 10) }

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Control characters are escaped,
// and invalid UTF-8 becomes U+FFFD so that every line is valid UTF-8.
func appendString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// AppendString appends s to buf as a JSON string (exported for encoders of
// the layers above that build JSON by hand on hot paths).
func AppendString(buf []byte, s string) []byte { return appendString(buf, s) }

// AppendResultHead appends the start of a success response up to and
// including "result": ; the result's JSON and a closing "}" complete it.
// Writers use it to send a large result from its own bytes.
func AppendResultHead(buf []byte, id ID) []byte {
	buf = append(buf, `{"jsonrpc":"2.0"`...)
	if id.raw != "" {
		buf = append(buf, `,"id":`...)
		buf = append(buf, id.raw...)
	}
	return append(buf, `,"result":`...)
}
