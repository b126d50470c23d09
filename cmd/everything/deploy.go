package main

import (
	"context"
	"os"
	"sync/atomic"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/tool"
)

// The tools of a deployment show from outside what happens inside one:
// which instance answered, and a resource update raised on demand, so that
// a test (deploy/deploy_test.go) sees fan-out reach another instance.

// callCounter counts the tool calls an instance served.
type callCounter struct{ n atomic.Int64 }

// middleware counts every tool call as it starts.
func (c *callCounter) middleware(_ tool.Tool, next tool.Handler) tool.Handler {
	return func(ctx context.Context, args json.RawMessage) (*tool.Result, error) {
		c.n.Add(1)
		return next(ctx, args)
	}
}

// instanceInfo is what the instance tool answers.
type instanceInfo struct {
	Instance string `json:"instance" description:"The -instance name."`
	PID      int    `json:"pid" description:"The process id."`
	Calls    int64  `json:"calls" description:"Tool calls this process served, this one included."`
}

// touchArgs are touch_resource's arguments.
type touchArgs struct {
	URI string `json:"uri" description:"The resource whose subscribers get notifications/resources/updated." jsonschema:"minLength=1"`
}

// addDeploymentTools registers instance and touch_resource.
func (srv *server) addDeploymentTools(name string, calls *callCounter) {
	srv.MustAddTool(tool.New("instance", "Says which instance of the deployment answered (its -instance name and process id) and how many tool calls it served.",
		func(context.Context, struct{}) (instanceInfo, error) {
			return instanceInfo{Instance: name, PID: os.Getpid(), Calls: calls.n.Load()}, nil
		}, tool.ReadOnly(true)))
	srv.MustAddTool(tool.New("touch_resource", "Raises notifications/resources/updated for the resource at uri, on this instance and, through the fan-out (-redis), on every other, without changing it.",
		func(_ context.Context, in touchArgs) (string, error) {
			srv.ResourceUpdated(in.URI)
			return "raised resources/updated for " + in.URI, nil
		}))
}
