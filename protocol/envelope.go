package protocol

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// jsonrpcVersion is the only "jsonrpc" value an envelope may have.
const jsonrpcVersion = "2.0"

// requestWire is the JSON form of a request.
type requestWire[P any] struct {
	JSONRPC string     `json:"jsonrpc"`
	ID      jsonrpc.ID `json:"id"`
	Method  string     `json:"method"`
	Params  P          `json:"params"`
}

// marshalRequest encodes a request envelope; the id is required.
func marshalRequest[P any](method string, id jsonrpc.ID, params P) ([]byte, error) {
	if !id.IsValid() {
		return nil, errorf("%s request has no id", method)
	}
	return json.Marshal(requestWire[P]{JSONRPC: jsonrpcVersion, ID: id, Method: method, Params: params})
}

// unmarshalRequest decodes a request envelope that must have the given
// method, "jsonrpc": "2.0" and an id.
func unmarshalRequest[P any](data []byte, method string, id *jsonrpc.ID, params *P) error {
	var w requestWire[P]
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	if err := checkEnvelope(w.JSONRPC, w.Method, method); err != nil {
		return err
	}
	if !w.ID.IsValid() {
		return errorf("%s request has no id", method)
	}
	*id, *params = w.ID, w.Params
	return nil
}

// notificationWire is the JSON form of a notification, for encoding.
// Params is nil when the notification has none.
type notificationWire struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// marshalNotification encodes a notification envelope; params nil leaves
// the member out.
func marshalNotification(method string, params any) ([]byte, error) {
	return json.Marshal(notificationWire{JSONRPC: jsonrpcVersion, Method: method, Params: params})
}

// unmarshalNotification decodes a notification envelope that must have
// the given method and "jsonrpc": "2.0".
func unmarshalNotification[P any](data []byte, method string, params *P) error {
	var w struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  P      `json:"params"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	if err := checkEnvelope(w.JSONRPC, w.Method, method); err != nil {
		return err
	}
	*params = w.Params
	return nil
}

// checkEnvelope checks the "jsonrpc" and "method" members of a request or
// notification.
func checkEnvelope(version, method, want string) error {
	if version != jsonrpcVersion {
		return errorf("jsonrpc is %q, want %q", version, jsonrpcVersion)
	}
	if method != want {
		return errorf("method is %q, want %q", method, want)
	}
	return nil
}
