package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/feature"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// defaultInputStateTTL is how long a requestState stays valid: a person
// answers an elicitation in between.
const defaultInputStateTTL = 15 * time.Minute

// maxInputRounds bounds the rounds of one call: a handler that asks
// something new every time it runs never completes.
const maxInputRounds = 16

// errCannotAsk: only tools/call, prompts/get and resources/read may need
// input from the client.
var errCannotAsk = errors.New("mcp: only the handlers of tools/call, prompts/get and resources/read can ask the client")

// input is what a call that may ask the client (tools/call, prompts/get,
// resources/read) knows about its questions. In the legacy era a question
// becomes a request to the client; in the modern era it is answered from
// the client's inputResponses and the sealed requestState, or recorded
// for this round's input_required result.
type input struct {
	modern bool
	bound  binding // what the state is bound to
	round  int     // rounds answered before this run

	mu      sync.Mutex
	answers map[string]json.RawMessage // by question key
	memo    map[string]json.RawMessage // the handler's remembered values
	asked   []question                 // modern: unanswered, in the order asked
}

type question struct {
	key, method string
	params      json.RawMessage
}

// request is the question as the request it asks, encoded.
func (q *question) request() json.RawMessage {
	body, _ := json.Marshal(protocol.RawRequest{Method: q.method, Params: q.params})
	return body
}

// legacyAsker is the input of every legacy call that may ask the client:
// it holds nothing until the handler remembers a value (see own), so that
// a call that never asks allocates nothing for it.
var legacyAsker = &input{}

// own returns the call's input (nil when it may ask nothing), made its own
// first if it is the shared legacyAsker.
func (c *call) own() *input {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.in == legacyAsker {
		c.in = &input{}
	}
	return c.in
}

// inputState is the plaintext of a requestState.
type inputState struct {
	Binding string                     `json:"b"`
	Round   int                        `json:"r"`
	Expires int64                      `json:"e"` // Unix milliseconds
	Asked   map[string]string          `json:"q"` // question key → method
	Answers map[string]json.RawMessage `json:"a,omitempty"`
	Memo    map[string]json.RawMessage `json:"m,omitempty"`
}

// binding is the request a requestState belongs to: the method, what it
// targets (tool, prompt or URI), its arguments and the caller (subject and
// scopes: a caller whose rights changed between rounds starts again,
// since the state carries what the handler kept under the old ones). Its
// digest is computed only when a state is opened or sealed, so that a
// call that asks nothing does not pay for canonicalizing its arguments.
type binding struct {
	r      *request
	target string
	args   json.RawMessage
}

// digest names the binding: a hash of the method, the target, the
// arguments in canonical form, and the caller's subject and scopes (in
// any order, once each).
func (b binding) digest() string {
	h := sha256.New()
	h.Write([]byte(b.r.method))
	h.Write([]byte{0})
	h.Write([]byte(b.target))
	h.Write([]byte{0})
	h.Write(canonicalJSON(b.args))
	h.Write([]byte{0})
	var caller auth.Principal // no caller is the anonymous one
	if b.r.caller != nil {
		caller = *b.r.caller
	}
	var n [binary.MaxVarintLen64]byte
	for _, v := range append([]string{caller.Subject}, slices.Compact(slices.Sorted(slices.Values(caller.Scopes)))...) {
		h.Write(binary.AppendUvarint(n[:0], uint64(len(v)))) // so that no subject passes for a scope
		h.Write([]byte(v))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// canonicalJSON re-encodes a JSON value with sorted keys and no spaces,
// so that a client that re-encodes the same arguments on a retry is not
// refused.
func canonicalJSON(raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return nil
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}

// openInput prepares the questions of a call. In the modern era it opens
// the requestState (-32602 when it was altered, belongs to another
// request, or expired) and takes the answers to the questions it lists
// from responses (the raw inputResponses object); responses to questions
// not asked are ignored, and one that does not answer its question's
// method is -32602.
func (s *Server) openInput(r *request, target string, args json.RawMessage, responses json.RawMessage, state string) (*input, *jsonrpc.Error) {
	if !r.modern() {
		return legacyAsker, nil
	}
	in := &input{modern: true, bound: binding{r, target, args}}
	if state == "" {
		return in, nil // a first round: answers without a state were never asked for
	}
	plain, err := s.keys.openState(state)
	var st inputState
	if err != nil || json.Unmarshal(plain, &st) != nil {
		return nil, invalidParams("requestState is not valid: it was altered, or sealed by a server with another key (servers behind one endpoint need one Options.StateKey)")
	}
	if st.Binding != in.bound.digest() {
		return nil, invalidParams("requestState belongs to another request: the %s, its arguments or the caller differ", s.methodTarget(r.method).noun())
	}
	if now := time.Now().UnixMilli(); now > st.Expires {
		return nil, invalidParams("requestState expired %s ago; send the request again without requestState and inputResponses", time.Duration(now-st.Expires)*time.Millisecond)
	}
	in.round, in.answers, in.memo = st.Round, st.Answers, st.Memo
	if in.answers == nil {
		in.answers = map[string]json.RawMessage{}
	}
	var given jsonx.Object
	if len(responses) > 0 {
		if given, err = jsonx.ParseObject(responses); err != nil {
			return nil, invalidParams(`"inputResponses" must be an object`)
		}
	}
	for _, key := range sortedKeys(st.Asked) {
		raw := given.Get(key)
		if raw == nil || string(raw) == "null" {
			continue // missing: the handler asks again
		}
		if err := answers(st.Asked[key], raw); err != nil {
			return nil, invalidParams("inputResponses[%s] does not answer %s: %v", clip.Quote(key), st.Asked[key], err)
		}
		in.answers[key] = raw
	}
	return in, nil
}

// answers checks that raw is an answer to method: of its kind, with the
// members the schema requires and known values where it lists them. What
// an answer means (a form that breaks its schema) is for package ask to
// judge, where the handler sees it.
func answers(method string, raw json.RawMessage) error {
	var resp protocol.InputResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		return err
	}
	switch {
	case method == protocol.MethodElicit && resp.Elicit != nil:
		switch resp.Elicit.Action {
		case protocol.ElicitAccept, protocol.ElicitDecline, protocol.ElicitCancel:
			return nil
		}
		return fmt.Errorf("action %s is not accept, decline or cancel", clip.Quote(string(resp.Elicit.Action)))
	case method == protocol.MethodCreateMessage && resp.CreateMessage != nil:
		r := resp.CreateMessage
		if (r.Role != protocol.RoleUser && r.Role != protocol.RoleAssistant) || r.Model == "" || len(r.Content.Blocks) == 0 {
			return errors.New("a sampling result needs role user or assistant, a model and content")
		}
		return nil
	case method == protocol.MethodListRoots && resp.ListRoots != nil:
		for i, root := range resp.ListRoots.Roots {
			if root.URI == "" {
				return fmt.Errorf("root %d has no uri", i)
			}
		}
		return nil
	}
	return errors.New("it answers another kind of request")
}

// required returns the input_required result for the questions this run
// left unanswered, or nil when there are none.
func (s *Server) required(in *input) (*protocol.InputRequiredResult, *jsonrpc.Error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.asked) == 0 {
		return nil, nil
	}
	if in.round+1 >= maxInputRounds {
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: the handler asked the client for input %d rounds in a row without completing", maxInputRounds)
	}
	res := &protocol.InputRequiredResult{
		Envelope:      protocol.Envelope{ResultType: protocol.ResultTypeInputRequired},
		InputRequests: make(protocol.InputRequests, len(in.asked)),
	}
	st := inputState{
		Binding: in.bound.digest(), Round: in.round + 1,
		Expires: time.Now().Add(s.opts.InputStateTTL).UnixMilli(),
		Asked:   make(map[string]string, len(in.asked)),
		Answers: in.answers, Memo: in.memo,
	}
	for _, q := range in.asked {
		var req protocol.InputRequest
		if err := json.Unmarshal(q.request(), &req); err != nil {
			return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: the %s request the handler made is not valid: %v", q.method, err)
		}
		res.InputRequests[q.key] = req
		st.Asked[q.key] = q.method
	}
	plain, err := json.Marshal(st)
	if err != nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: sealing the request state: %v", err)
	}
	res.RequestState = s.keys.sealState(plain)
	return res, nil
}

// AskClient answers a question of the handler (package ask): in the
// legacy era by sending the request to the client, in the modern era from
// the answers given, or by recording it for input_required.
func (c *call) AskClient(ctx context.Context, key, method string, params json.RawMessage) (json.RawMessage, error) {
	c.mu.Lock()
	in := c.in
	c.mu.Unlock()
	if in == nil {
		return nil, errCannotAsk
	}
	if !in.modern {
		if method == protocol.MethodListRoots {
			return c.ss.listRoots(ctx, c)
		}
		if method == protocol.MethodElicit && !feature.SelectEnums(c.req.rev) {
			var err error
			if params, err = projectForm(params); err != nil {
				return nil, err
			}
		}
		return c.ClientRequest(ctx, method, params)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if a, ok := in.answers[key]; ok {
		return a, nil
	}
	for _, q := range in.asked {
		if q.key == key {
			return nil, ask.ErrInputRequired
		}
	}
	in.asked = append(in.asked, question{key: key, method: method, params: params})
	return nil, ask.ErrInputRequired
}

// Remember keeps a handler's value for its next rounds (package ask).
func (c *call) Remember(name string, value json.RawMessage) {
	in := c.own()
	if in == nil {
		return
	}
	in.mu.Lock()
	if in.memo == nil {
		in.memo = map[string]json.RawMessage{}
	}
	in.memo[name] = value
	in.mu.Unlock()
}

// Recall returns a value the handler remembered (package ask).
func (c *call) Recall(name string) (json.RawMessage, bool) {
	in := c.own()
	if in == nil {
		return nil, false
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	v, ok := in.memo[name]
	return v, ok
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// missingCapability returns the -32021 error a handler's err carries, if
// any: a handler that cannot work without a capability is answered so even
// while other questions of its run are unanswered.
func missingCapability(err error) *jsonrpc.Error {
	var rpcErr *jsonrpc.Error
	if err != nil && errors.As(err, &rpcErr) && rpcErr.Code == jsonrpc.CodeMissingRequiredClientCapability {
		return rpcErr
	}
	return nil
}

// inputOutcome is a handler's answer when its run left questions
// unanswered: the input_required result, or the error building it.
func inputOutcome(res *protocol.InputRequiredResult, err *jsonrpc.Error) (any, error) {
	if err != nil {
		return nil, err
	}
	return res, nil
}

// promptArgsJSON is a prompt's arguments as JSON, for the state binding.
func promptArgsJSON(args map[string]string) json.RawMessage {
	raw, _ := json.Marshal(args)
	return raw
}
