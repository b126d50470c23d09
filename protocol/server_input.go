package protocol

import json "github.com/goccy/go-json"

// RawRequest is a request as the schema's Request defines it, its method
// and its params, with the params left raw: what a server has of an input
// request ("Multi Round-Trip Requests") before it is read as one of
// [InputRequest]'s variants, or to keep it as it was asked (a task's
// pending input requests).
type RawRequest struct {
	// Method is the request's method; required.
	Method string `json:"method"`
	// Params are the request's params, raw.
	Params json.RawMessage `json:"params"`
}
