package client

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/protocol"
)

// progressKey keys the callback of WithProgress in a context.
type progressKey struct{}

// progressTokens numbers the progress tokens the client sends.
var progressTokens atomic.Int64

// WithProgress returns a context whose calls ask the server for progress
// (the specification's Progress section): each request carries a
// progressToken of its own in _meta, and f gets every
// notifications/progress the server sends with it until the call returns.
// f runs on a goroutine that reads the server's messages and must not
// block or call the client.
func WithProgress(ctx context.Context, f func(protocol.ProgressNotificationParams)) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// progressOf returns a new token and the callback when ctx asks for
// progress.
func progressOf(ctx context.Context) (json.RawMessage, func(protocol.ProgressNotificationParams)) {
	f, _ := ctx.Value(progressKey{}).(func(protocol.ProgressNotificationParams))
	if f == nil {
		return nil, nil
	}
	return json.RawMessage(fmt.Sprintf(`"mcpwire-progress-%d"`, progressTokens.Add(1))), f
}

// metaKey keys the members of WithMeta in a context.
type metaKey struct{}

// WithMeta returns a context whose requests carry the members of m in
// their params' _meta, besides what the client puts there itself: what a
// proxy needs to pass on its caller's
// io.modelcontextprotocol/clientCapabilities (2026-07-28), which then
// replace the client's own for those requests. Requests whose params are
// not an object fail.
func WithMeta(ctx context.Context, m protocol.Meta) context.Context {
	return context.WithValue(ctx, metaKey{}, m)
}

// encodeParams encodes params (nil: none; a json.RawMessage as it is; any
// other value as JSON) and puts token, when not nil, and the members of
// WithMeta in ctx, in its _meta.
func encodeParams(ctx context.Context, params any, token json.RawMessage) (json.RawMessage, error) {
	var raw json.RawMessage
	switch p := params.(type) {
	case nil:
	case json.RawMessage:
		raw = p
	default:
		b, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	extra, _ := ctx.Value(metaKey{}).(protocol.Meta)
	if token == nil && len(extra) == 0 {
		return raw, nil
	}
	if out, ok := spliceMeta(raw, extra, token); ok {
		return out, nil
	}
	m := map[string]json.RawMessage{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("_meta needs params that are an object: %w", err)
		}
	}
	meta := map[string]json.RawMessage{}
	if b, ok := m["_meta"]; ok {
		if err := json.Unmarshal(b, &meta); err != nil {
			return nil, fmt.Errorf("params._meta is not an object: %w", err)
		}
	}
	for k, v := range extra {
		meta[k] = v
	}
	if token != nil {
		meta["progressToken"] = token
	}
	b, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	m["_meta"] = b
	return json.Marshal(m)
}

// spliceMeta puts a _meta of extra's members and token first in params,
// an object without _meta (the common call: no decoding, one copy), and
// reports false for any other params.
func spliceMeta(params json.RawMessage, extra protocol.Meta, token json.RawMessage) (json.RawMessage, bool) {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if k != "progressToken" || token == nil {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	meta := append(make([]byte, 0, 256), '{')
	for i, k := range keys {
		if i > 0 {
			meta = append(meta, ',')
		}
		if !json.Valid(extra[k]) {
			return nil, false
		}
		meta = append(append(jsonx.AppendString(meta, k), ':'), extra[k]...)
	}
	if token != nil {
		if len(keys) > 0 {
			meta = append(meta, ',')
		}
		meta = append(append(meta, `"progressToken":`...), token...)
	}
	return jsonx.Prepend(params, "_meta", append(meta, '}'))
}
