package contract

import (
	"context"
	"errors"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/tool"
)

// Call runs one call of the tool within its contract: the arguments are
// prepared (Prepare), the handler runs only when they pass, and what it
// returns is checked (Check). A handler's plain error becomes an isError
// result carrying its text; a *jsonrpc.Error it returns on purpose is
// rpcErr, the JSON-RPC error response to send instead of a result. broken
// is non-nil when the handler's result broke the contract and was
// replaced: the server logs it.
func (c *Contract) Call(ctx context.Context, args json.RawMessage) (res *tool.Result, broken, rpcErr error) {
	args, bad := c.Prepare(args)
	if bad != nil {
		return bad, nil, nil
	}
	res, err := c.handler(ctx, args)
	if err != nil {
		var e *jsonrpc.Error
		if errors.As(err, &e) {
			return nil, nil, e
		}
		res = tool.ErrorResult("%s", err.Error())
	}
	res, broken = c.Check(res)
	return res, broken, nil
}
