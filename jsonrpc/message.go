package jsonrpc

import json "github.com/goccy/go-json"

// Message is one JSON-RPC message: *Request, *Notification, *Response,
// Batch or BatchResponse. The set is sealed.
type Message interface{ isMessage() }

// Request is a call that expects exactly one response.
type Request struct {
	ID     ID
	Method string
	// Params is the raw params object, nil when absent.
	Params json.RawMessage
}

// Notification is a one-way message: it has no id and gets no response.
type Notification struct {
	Method string
	Params json.RawMessage
}

// Response answers a request: exactly one of Result and Error is set.
type Response struct {
	// ID is the id of the request answered; the zero ID when the request's
	// id could not be read (then "id" is omitted on the wire).
	ID     ID
	Result json.RawMessage
	Error  *Error
}

// Batch is a JSON array of messages as received (2025-03-26 only). Each
// item holds either a decoded message or the error that decoding it gave.
type Batch []BatchItem

// BatchItem is one element of a received batch.
type BatchItem struct {
	Msg Message
	Err *DecodeError
}

// BatchResponse is the array of responses that answers a Batch.
type BatchResponse []*Response

func (*Request) isMessage()      {}
func (*Notification) isMessage() {}
func (*Response) isMessage()     {}
func (Batch) isMessage()         {}
func (BatchResponse) isMessage() {}

// DecodeError reports a message that could not be decoded. It is not fatal
// to a connection: the receiver answers it with Response and keeps reading.
// A message that is not a valid notification is answered too, as JSON-RPC
// 2.0 asks, since its kind cannot be trusted.
type DecodeError struct {
	// ID is the message's id when it could be read.
	ID ID
	// Err is the error to send back: -32700 or -32600.
	Err *Error
}

// Error implements the error interface.
func (e *DecodeError) Error() string { return e.Err.Error() }

// Unwrap returns the wire error.
func (e *DecodeError) Unwrap() error { return e.Err }

// Response returns the error response that answers the bad message.
func (e *DecodeError) Response() *Response { return &Response{ID: e.ID, Error: e.Err} }

// NewResult returns a success response whose result is v marshalled.
func NewResult(id ID, v any) (*Response, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &Response{ID: id, Result: b}, nil
}

// NewErrorResponse returns an error response for id built from err (see
// WireError).
func NewErrorResponse(id ID, err error) *Response {
	return &Response{ID: id, Error: WireError(err)}
}
