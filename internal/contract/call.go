package contract

import (
	"context"
	"errors"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/tool"
)

// Outcome is what one call of a tool came to.
type Outcome struct {
	// Result is the result to send, unless RPCError is set.
	Result *tool.Result
	// RPCError is a *jsonrpc.Error the handler returned on purpose: the
	// JSON-RPC error response to send instead of a result.
	RPCError *jsonrpc.Error
	// HandlerError is a plain error the handler returned; Result is the
	// isError result carrying its text. The server logs it.
	HandlerError error
	// Broken is set when the handler's result broke the contract and
	// Result replaces it; it wraps ErrContract. The server logs it.
	Broken error
}

// Call runs one call of the tool within its contract: the arguments are
// prepared (Prepare), the handler runs only when they pass, and what it
// returns is checked (Check).
func (c *Contract) Call(ctx context.Context, args json.RawMessage) Outcome {
	args, bad := c.Prepare(args)
	if bad != nil {
		return Outcome{Result: bad}
	}
	var out Outcome
	res, err := c.handler(ctx, args)
	if err != nil {
		// Only the failure path takes an address for errors.As, so that
		// Outcome stays off the heap on every other call.
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			return Outcome{RPCError: rpcErr}
		}
		out.HandlerError = err
		res = tool.ErrorResult("%s", err.Error())
	}
	out.Result, out.Broken = c.Check(res)
	return out
}
