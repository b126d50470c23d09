package protocol

import json "github.com/goccy/go-json"

// InputRequiredResult answers tools/call, prompts/get or resources/read
// when the server needs more from the client first (multi round-trip
// requests). The client retries the original request, with a new id, with
// the answers in inputResponses under the same keys and requestState
// echoed. At least one of InputRequests and RequestState is set.
type InputRequiredResult struct {
	// Envelope holds resultType and _meta.
	Envelope
	// InputRequests are what the server asks for, by keys of its choosing.
	InputRequests InputRequests `json:"inputRequests,omitzero"`
	// RequestState is opaque state the client echoes on the retry.
	RequestState string `json:"requestState,omitempty"`
}

// InputRequests are the input requests of an [InputRequiredResult], by
// key.
type InputRequests map[string]InputRequest

// InputResponses are a client's answers to input requests, under the keys
// of the requests they answer.
type InputResponses map[string]InputResponse

// InputRequest is one request for input: exactly one of its fields is
// set. It encodes as {"method": ..., "params": ...}, the method naming the
// variant: elicitation/create, sampling/createMessage or roots/list (the
// last two deprecated features). In 2026-07-28 these are not JSON-RPC
// requests of their own but entries of [InputRequiredResult.InputRequests],
// so they have no id. Decoding picks the variant by "method"; any other
// method is an error. Absent params decode as empty ones.
type InputRequest struct {
	Elicit        *ElicitRequestParams        // elicitation/create
	CreateMessage *CreateMessageRequestParams // sampling/createMessage
	ListRoots     *ListRootsRequestParams     // roots/list
}

// inputRequests is InputRequest's union.
var inputRequests = union[InputRequest]{
	tag:  "input request method",
	pick: tagged("method"),
	cases: []unionCase[InputRequest]{
		inputVariant(MethodElicit, func(r *InputRequest) **ElicitRequestParams { return &r.Elicit }),
		inputVariant(MethodCreateMessage, func(r *InputRequest) **CreateMessageRequestParams { return &r.CreateMessage }),
		inputVariant(MethodListRoots, func(r *InputRequest) **ListRootsRequestParams { return &r.ListRoots }),
	},
}

// inputWire is the JSON form of an input request.
type inputWire[P any] struct {
	Method string `json:"method"`
	Params *P     `json:"params"`
}

// inputVariant returns the case of the input request method, whose params
// decode into the field that field selects.
func inputVariant[P any](method string, field func(*InputRequest) **P) unionCase[InputRequest] {
	return unionCase[InputRequest]{
		name: method,
		decode: func(data []byte) (any, error) {
			var w inputWire[P]
			if err := json.Unmarshal(data, &w); err != nil {
				return nil, err
			}
			if w.Params == nil {
				w.Params = new(P)
			}
			return w.Params, nil
		},
		set: func(r *InputRequest, v any) { *field(r) = v.(*P) },
	}
}

// MarshalJSON encodes the one variant that is set, with its method.
func (r InputRequest) MarshalJSON() ([]byte, error) {
	switch i, err := setVariant("input request", r.Elicit, r.CreateMessage, r.ListRoots); {
	case err != nil:
		return nil, err
	case i == 0:
		return json.Marshal(inputWire[ElicitRequestParams]{MethodElicit, r.Elicit})
	case i == 1:
		return json.Marshal(inputWire[CreateMessageRequestParams]{MethodCreateMessage, r.CreateMessage})
	}
	return json.Marshal(inputWire[ListRootsRequestParams]{MethodListRoots, r.ListRoots})
}

// UnmarshalJSON decodes a request into the variant its "method" names.
func (r *InputRequest) UnmarshalJSON(data []byte) error {
	return inputRequests.unmarshal(data, r)
}

// InputResponse is one answer to an input request: exactly one of its
// fields is set. The schema gives the variants no tag, so decoding tells
// them apart by the required member only one of them has: "action"
// (elicitation), "model" (sampling) or "roots"; a value with none of them,
// or more than one, is an error.
type InputResponse struct {
	Elicit        *ElicitResult        // answers elicitation/create
	CreateMessage *CreateMessageResult // answers sampling/createMessage
	ListRoots     *ListRootsResult     // answers roots/list
}

// inputResponses is InputResponse's union, its variants named by the
// member only each has.
var inputResponses = union[InputResponse]{
	tag:  "input response",
	pick: onlyMember("input response must have exactly one of action, model and roots", "action", "model", "roots"),
	cases: []unionCase[InputResponse]{
		variant("action", func(r *InputResponse) **ElicitResult { return &r.Elicit }),
		variant("model", func(r *InputResponse) **CreateMessageResult { return &r.CreateMessage }),
		variant("roots", func(r *InputResponse) **ListRootsResult { return &r.ListRoots }),
	},
}

// MarshalJSON encodes the one variant that is set.
func (r InputResponse) MarshalJSON() ([]byte, error) {
	return marshalVariant("input response", r.Elicit, r.CreateMessage, r.ListRoots)
}

// UnmarshalJSON decodes an answer into the variant whose member it has.
func (r *InputResponse) UnmarshalJSON(data []byte) error {
	return inputResponses.unmarshal(data, r)
}

// Outcome is the result of a request that may need input first
// (tools/call, prompts/get, resources/read): exactly one of its fields is
// set. Decoding picks InputRequired when "resultType" is "input_required"
// and Result otherwise.
type Outcome[T any] struct {
	// Result is the request's own result.
	Result *T
	// InputRequired asks the client for input before a retry.
	InputRequired *InputRequiredResult
}

// MarshalJSON encodes the one variant that is set.
func (o Outcome[T]) MarshalJSON() ([]byte, error) {
	return marshalVariant("outcome", o.Result, o.InputRequired)
}

// UnmarshalJSON decodes a result into the variant its "resultType" names:
// InputRequired for "input_required", Result for any other or none.
func (o *Outcome[T]) UnmarshalJSON(data []byte) error {
	u := union[Outcome[T]]{
		tag: "result type",
		pick: func(data []byte) (string, error) {
			rt, err := member(data, "resultType")
			if err != nil || ResultType(rt) == ResultTypeInputRequired {
				return rt, err
			}
			return "", nil
		},
		cases: []unionCase[Outcome[T]]{
			variant(string(ResultTypeInputRequired), func(o *Outcome[T]) **InputRequiredResult { return &o.InputRequired }),
			variant("", func(o *Outcome[T]) **T { return &o.Result }),
		},
	}
	return u.unmarshal(data, o)
}
