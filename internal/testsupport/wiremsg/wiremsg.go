// Package wiremsg holds the whole JSON-RPC messages of MCP for tests: a
// request, a success or error response, a notification, each generic in
// its params or result. Package protocol has the params and results (what
// a server or client works with) and package jsonrpc the envelope a
// connection reads and writes; these types put the two together so that
// tests can decode the official examples ("Basic" in the specification's
// JSON-RPC messages section) into one Go value and encode it back.
//
// Decoding checks "jsonrpc": "2.0", and, when the value decoded into has a
// Method set beforehand, that the message has that method; requests and
// success responses must have an id.
package wiremsg

import (
	"fmt"
	"reflect"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// version is the only "jsonrpc" value a message may have.
const version = "2.0"

// Request is a JSON-RPC request whose params are a P.
type Request[P any] struct {
	// ID is the request id; required.
	ID jsonrpc.ID
	// Method is the request's method; when set before decoding, the
	// message must have it.
	Method string
	// Params are the request's params.
	Params P
}

// NewRequest returns a request to decode into that must have method.
func NewRequest[P any](method string) *Request[P] { return &Request[P]{Method: method} }

// requestWire is the JSON form of a request.
type requestWire[P any] struct {
	JSONRPC string     `json:"jsonrpc"`
	ID      jsonrpc.ID `json:"id"`
	Method  string     `json:"method"`
	Params  P          `json:"params"`
}

// MarshalJSON encodes the request; the id is required.
func (r Request[P]) MarshalJSON() ([]byte, error) {
	if !r.ID.IsValid() {
		return nil, errorf("%s request has no id", r.Method)
	}
	return json.Marshal(requestWire[P]{JSONRPC: version, ID: r.ID, Method: r.Method, Params: r.Params})
}

// UnmarshalJSON decodes a request with an id, of r.Method if that is set.
func (r *Request[P]) UnmarshalJSON(data []byte) error {
	var w requestWire[P]
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	if err := check(w.JSONRPC, w.Method, r.Method); err != nil {
		return err
	}
	if !w.ID.IsValid() {
		return errorf("%s request has no id", w.Method)
	}
	r.ID, r.Method, r.Params = w.ID, w.Method, w.Params
	return nil
}

// Notification is a JSON-RPC notification whose params are a P. A P that
// is a nil pointer leaves "params" out.
type Notification[P any] struct {
	// Method is the notification's method; when set before decoding, the
	// message must have it.
	Method string
	// Params are the notification's params.
	Params P
}

// NewNotification returns a notification to decode into that must have
// method.
func NewNotification[P any](method string) *Notification[P] {
	return &Notification[P]{Method: method}
}

// notificationWire is the JSON form of a notification, for encoding.
type notificationWire struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// MarshalJSON encodes the notification.
func (n Notification[P]) MarshalJSON() ([]byte, error) {
	w := notificationWire{JSONRPC: version, Method: n.Method}
	if v := reflect.ValueOf(&n.Params).Elem(); v.Kind() != reflect.Pointer || !v.IsNil() {
		w.Params = n.Params
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes a notification, of n.Method if that is set.
func (n *Notification[P]) UnmarshalJSON(data []byte) error {
	var w struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  P      `json:"params"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	if err := check(w.JSONRPC, w.Method, n.Method); err != nil {
		return err
	}
	n.Method, n.Params = w.Method, w.Params
	return nil
}

// Result is a JSON-RPC success response whose result is an R:
// {"jsonrpc": "2.0", "id": ..., "result": ...}.
type Result[R any] struct {
	// ID is the id of the request answered; required.
	ID jsonrpc.ID
	// Result is the result.
	Result R
}

// resultWire is the JSON form of a success response.
type resultWire[R any] struct {
	JSONRPC string     `json:"jsonrpc"`
	ID      jsonrpc.ID `json:"id"`
	Result  R          `json:"result"`
}

// MarshalJSON encodes the response; the id is required.
func (r Result[R]) MarshalJSON() ([]byte, error) {
	if !r.ID.IsValid() {
		return nil, errorf("result response has no id")
	}
	return json.Marshal(resultWire[R]{JSONRPC: version, ID: r.ID, Result: r.Result})
}

// UnmarshalJSON decodes a success response with an id.
func (r *Result[R]) UnmarshalJSON(data []byte) error {
	var w resultWire[R]
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	if err := check(w.JSONRPC, "", ""); err != nil {
		return err
	}
	if !w.ID.IsValid() {
		return errorf("result response has no id")
	}
	r.ID, r.Result = w.ID, w.Result
	return nil
}

// Error is a JSON-RPC error response:
// {"jsonrpc": "2.0", "id": ..., "error": {...}}. The id is left out when
// the request's id could not be read; MCP never sends "id": null.
type Error struct {
	// ID is the id of the request answered; zero when unknown.
	ID jsonrpc.ID
	// Error is the error object.
	Error jsonrpc.Error
}

// errorWire is the JSON form of an error response.
type errorWire struct {
	JSONRPC string        `json:"jsonrpc"`
	ID      *jsonrpc.ID   `json:"id,omitempty"`
	Error   jsonrpc.Error `json:"error"`
}

// MarshalJSON encodes the response, without "id" when ID is zero.
func (r Error) MarshalJSON() ([]byte, error) {
	w := errorWire{JSONRPC: version, Error: r.Error}
	if r.ID.IsValid() {
		w.ID = &r.ID
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes an error response.
func (r *Error) UnmarshalJSON(data []byte) error {
	var w errorWire
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	if err := check(w.JSONRPC, "", ""); err != nil {
		return err
	}
	r.ID, r.Error = jsonrpc.ID{}, w.Error
	if w.ID != nil {
		r.ID = *w.ID
	}
	return nil
}

// check checks the "jsonrpc" member, and the method when want is set.
func check(jsonrpcVersion, method, want string) error {
	if jsonrpcVersion != version {
		return errorf("jsonrpc is %q, want %q", jsonrpcVersion, version)
	}
	if want != "" && method != want {
		return errorf("method is %q, want %q", method, want)
	}
	return nil
}

// errorf returns an error with the package's prefix.
func errorf(format string, args ...any) error {
	return fmt.Errorf("wiremsg: "+format, args...)
}
