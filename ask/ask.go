package ask

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/callctx"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// ErrInputRequired is returned by an ask in the 2026-07-28 era while the
// client has not answered the question yet: the server answers the call
// input_required and runs the handler again with the answer. Return it
// (or any error); nothing needs to test for it.
var ErrInputRequired = errors.New("ask: the question went to the client; the handler runs again with its answer")

// ErrNoCall is returned by an ask outside a handler the server runs.
var ErrNoCall = errors.New("ask: not in a call served by an mcp server")

// An Option refines one question.
type Option func(*question)

type question struct{ key string }

// Key names the question: the key of its entry in the 2026-07-28
// inputRequests and inputResponses. Without it the key is derived from the
// question's method and content, which is stable across rounds. A key is
// 1 to 64 characters of letters, digits, '_', '-' and '.'.
func Key(k string) Option { return func(q *question) { q.key = k } }

// CapabilityError reports that the client did not declare what an ask
// needs. Returned by a handler as it is, it makes the call's response the
// -32021 error (MissingRequiredClientCapability) with
// data.requiredCapabilities naming the capability.
type CapabilityError struct {
	// Capability is the capability's path in the client's capabilities,
	// such as "sampling", "sampling.tools" or "elicitation.url".
	Capability string
}

// Error names the missing capability.
func (e *CapabilityError) Error() string {
	return fmt.Sprintf("ask: the client did not declare the %q capability", e.Capability)
}

// As makes the error a *jsonrpc.Error for errors.As: the -32021 error with
// data.requiredCapabilities, as the server sends it.
func (e *CapabilityError) As(target any) bool {
	p, ok := target.(**jsonrpc.Error)
	if !ok {
		return false
	}
	required := map[string]any{}
	parts := strings.Split(e.Capability, ".")
	for i := len(parts) - 1; i >= 0; i-- {
		required = map[string]any{parts[i]: required}
	}
	*p = jsonrpc.NewError(jsonrpc.CodeMissingRequiredClientCapability,
		"missing client capability: this request needs %q, which the client did not declare", e.Capability).
		WithData(map[string]any{"requiredCapabilities": required})
	return true
}

// Declared reports whether the client of the call in ctx declared the
// capability at path ("sampling", "sampling.tools", "elicitation.form",
// "roots", ...). An empty elicitation object declares the form mode.
func Declared(ctx context.Context, path string) bool {
	c := callctx.From(ctx)
	if c == nil {
		return false
	}
	info := c.Request()
	if info == nil {
		return false
	}
	return declared(info.ClientCapabilities, path)
}

// Require returns nil when the client of the call in ctx declared the
// capability at path, and otherwise the [*CapabilityError] that, returned
// by the handler, makes the response -32021 with
// data.requiredCapabilities: for a handler that cannot work without it.
func Require(ctx context.Context, path string) error {
	if Declared(ctx, path) {
		return nil
	}
	return &CapabilityError{Capability: path}
}

func declared(caps json.RawMessage, path string) bool {
	parts := strings.Split(path, ".")
	cur := caps
	for i, p := range parts {
		obj, err := jsonx.ParseObject(cur)
		if err != nil {
			return false
		}
		if i == 1 && parts[0] == "elicitation" && p == "form" && obj.Len() == 0 {
			return true // {} means form only
		}
		v := obj.Get(p)
		if v == nil || jsonx.FirstByte(v) != '{' {
			return false
		}
		cur = v
	}
	return true
}

// do asks the client for method with params, after checking that the
// client declared every capability in needs.
func do(ctx context.Context, method string, params any, needs []string, opts []Option) (json.RawMessage, error) {
	c := callctx.From(ctx)
	if c == nil {
		return nil, ErrNoCall
	}
	caps := c.Request().ClientCapabilities
	for _, n := range needs {
		if !declared(caps, n) {
			return nil, &CapabilityError{Capability: n}
		}
	}
	var q question
	for _, o := range opts {
		o(&q)
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("ask: encoding the %s request: %w", method, err)
	}
	key := q.key
	if key == "" {
		key = derivedKey(method, raw)
	} else if !callctx.ValidKey(key) {
		return nil, fmt.Errorf("ask: invalid question key %q: use 1 to 64 letters, digits, '_', '-' or '.'", key)
	}
	return c.AskClient(ctx, key, method, raw)
}

// derivedKey names a question by its method and content: the same question
// gets the same key in every round.
func derivedKey(method string, params []byte) string {
	h := sha256.New()
	h.Write([]byte(method))
	h.Write([]byte{0})
	h.Write(params)
	short := method
	if i := strings.IndexByte(method, '/'); i >= 0 {
		short = method[:i]
	}
	return short + "-" + hex.EncodeToString(h.Sum(nil)[:6])
}

// Remember keeps v (any JSON-encodable value) under name for the rounds of
// this call that follow: [Recall] returns it in every later run of the
// handler. In the 2026-07-28 era it travels sealed in the requestState
// (so keep it small); in the legacy era, where the handler runs once, it
// lives as long as the call. Use it to run a side effect once:
//
//	if ok, _ := ask.Recall(ctx, "charged", nil); !ok {
//		charge()
//		ask.Remember(ctx, "charged", true)
//	}
func Remember(ctx context.Context, name string, v any) error {
	c := callctx.From(ctx)
	if c == nil {
		return ErrNoCall
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("ask: remembering %q: %w", name, err)
	}
	c.Remember(name, raw)
	return nil
}

// Recall decodes the value remembered under name into v (which may be nil
// to only test for it) and reports whether there was one.
func Recall(ctx context.Context, name string, v any) (bool, error) {
	c := callctx.From(ctx)
	if c == nil {
		return false, ErrNoCall
	}
	raw, found := c.Recall(name)
	if !found {
		return false, nil
	}
	if v == nil {
		return true, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return true, fmt.Errorf("ask: recalling %q: %w", name, err)
	}
	return true, nil
}
