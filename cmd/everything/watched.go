package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// watchedURI is the resource that changes while the server runs.
const watchedURI = "test://watched-resource"

// watched is test://watched-resource: text carrying a version number that
// every change bumps, telling the resource's followers (legacy
// resources/subscribe, 2026-07-28 listen streams). Its methods are safe for
// concurrent use.
type watched struct {
	srv     *mcp.Server
	version atomic.Int64
}

// newWatched returns the watched resource of srv at version 1.
func newWatched(srv *mcp.Server) *watched {
	w := &watched{srv: srv}
	w.version.Store(1)
	return w
}

// watchedText is the resource's contents at version v.
func watchedText(v int64) string {
	return fmt.Sprintf("This is the watched resource, version %d.", v)
}

// resource is the watched resource's descriptor and reader. Its reads are
// never to be cached: a 2026-07-28 result says ttlMs 0.
func (w *watched) resource() mcp.Resource {
	return mcp.Resource{
		URI: watchedURI, Name: "watched-resource", Title: "Watched resource",
		Description: "Text that changes on a timer (-watch-interval) and when test_trigger_resource_update is called; subscribe to hear of it.",
		MimeType:    "text/plain",
		Cache:       &mcp.CacheHint{TTL: 0},
		Read: func(context.Context, string) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextContents(watchedURI, "text/plain", watchedText(w.version.Load()))}, nil
		},
	}
}

// change bumps the version, tells the followers and returns the new
// version.
func (w *watched) change() int64 {
	v := w.version.Add(1)
	w.srv.ResourceUpdated(watchedURI)
	return v
}

// run changes the resource every interval until ctx is done; with an
// interval of 0 it returns at once.
func (w *watched) run(ctx context.Context, interval time.Duration) {
	if interval <= 0 {
		return
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			w.change()
		}
	}
}

// triggerTool is test_trigger_resource_update: it changes the watched
// resource once, so that a client sees notifications/resources/updated
// without waiting for the timer.
func (w *watched) triggerTool() tool.Tool {
	return tool.Tool{
		Name:        "test_trigger_resource_update",
		Description: "Changes test://watched-resource once (its text gains a new version number), so that its subscribers get notifications/resources/updated.",
		InputSchema: noArgs,
		Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
			v := w.change()
			return tool.TextResult(fmt.Sprintf("updated %s to version %d", watchedURI, v)), nil
		},
	}
}
