package jsonrpc

import (
	"errors"
	"fmt"

	json "github.com/goccy/go-json"
)

// JSON-RPC 2.0 error codes.
const (
	CodeParseError     int64 = -32700
	CodeInvalidRequest int64 = -32600
	CodeMethodNotFound int64 = -32601
	CodeInvalidParams  int64 = -32602
	CodeInternalError  int64 = -32603
)

// MCP error codes (the specification's error codes; the comment on each says its era).
const (
	// CodeResourceNotFound is the legacy (2025-11-25 and earlier) code for
	// a missing resource; the 2026-07-28 era uses CodeInvalidParams.
	CodeResourceNotFound int64 = -32002
	// CodeHeaderMismatch reports an HTTP header that disagrees with the body.
	CodeHeaderMismatch int64 = -32020
	// CodeMissingRequiredClientCapability reports a capability the request
	// did not declare.
	CodeMissingRequiredClientCapability int64 = -32021
	// CodeUnsupportedProtocolVersion reports a protocol version the server
	// does not serve (2026-07-28).
	CodeUnsupportedProtocolVersion int64 = -32022
	// CodeURLElicitationRequired is 2025-11-25 only.
	CodeURLElicitationRequired int64 = -32042
)

// Error is the one wire-error type: a JSON-RPC error object. Two errors
// match under [errors.Is] when their codes are equal, so
// errors.Is(err, ErrInvalidParams) holds for every -32602.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Sentinels, one per code, for use with errors.Is.
var (
	ErrParse                   = &Error{Code: CodeParseError, Message: "parse error"}
	ErrInvalidRequest          = &Error{Code: CodeInvalidRequest, Message: "invalid request"}
	ErrMethodNotFound          = &Error{Code: CodeMethodNotFound, Message: "method not found"}
	ErrInvalidParams           = &Error{Code: CodeInvalidParams, Message: "invalid params"}
	ErrInternal                = &Error{Code: CodeInternalError, Message: "internal error"}
	ErrResourceNotFound        = &Error{Code: CodeResourceNotFound, Message: "resource not found"}
	ErrHeaderMismatch          = &Error{Code: CodeHeaderMismatch, Message: "header mismatch"}
	ErrMissingClientCapability = &Error{Code: CodeMissingRequiredClientCapability, Message: "missing required client capability"}
	ErrUnsupportedVersion      = &Error{Code: CodeUnsupportedProtocolVersion, Message: "unsupported protocol version"}
	ErrURLElicitationRequired  = &Error{Code: CodeURLElicitationRequired, Message: "URL elicitation required"}
)

// NewError returns an error with the given code and message.
func NewError(code int64, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithData returns a copy of e carrying data, marshalled as JSON. A value
// that cannot be marshalled leaves Data empty.
func (e *Error) WithData(data any) *Error {
	c := *e
	if b, err := json.Marshal(data); err == nil {
		c.Data = b
	}
	return &c
}

// Error implements the error interface.
func (e *Error) Error() string {
	return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message)
}

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// WireError converts any error into the error object that goes on the wire.
// An *Error found with errors.As is used as is; any other error becomes
// -32603 (internal error) carrying its text, never code 0.
func WireError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		if e.Code == 0 {
			c := *e
			c.Code = CodeInternalError
			return &c
		}
		return e
	}
	if err == nil {
		return &Error{Code: CodeInternalError, Message: "internal error"}
	}
	return &Error{Code: CodeInternalError, Message: "internal error: " + err.Error()}
}
