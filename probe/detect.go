package probe

import (
	"bytes"
	"context"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/tool"
)

// request is what a call's _meta says about probing.
type request int

const (
	// notProbe: the key is absent or false; the call runs.
	notProbe request = iota
	// isProbe: the key is exactly true.
	isProbe
	// badFlag: the key holds something other than true or false.
	badFlag
)

var keyBytes = []byte(PermissionPatternsKey)

// IsProbe reports whether the call in progress is a permission probe: its
// params._meta holds "forge.permission_patterns" with the JSON value true,
// exactly. It is false outside a call.
func IsProbe(ctx context.Context) bool {
	return requestOf(ctx) == isProbe
}

// requestOf reads the probe flag of the call in progress. A call without
// _meta costs one context lookup; a _meta that cannot hold the key (no
// backslash escape and no literal key) costs two byte scans.
func requestOf(ctx context.Context) request {
	c := tool.CallFrom(ctx)
	if c == nil {
		return notProbe
	}
	return flagIn(c.Meta())
}

// flagIn reads the probe flag from a raw _meta object.
func flagIn(meta json.RawMessage) request {
	if len(meta) == 0 || (bytes.IndexByte(meta, '\\') < 0 && !bytes.Contains(meta, keyBytes)) {
		return notProbe
	}
	obj, err := jsonrpc.ParseObject(meta)
	if err != nil {
		return notProbe
	}
	switch v := obj.Get(PermissionPatternsKey); string(v) {
	case "", "false":
		return notProbe
	case "true":
		return isProbe
	default:
		return badFlag
	}
}
