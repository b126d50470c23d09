package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"runtime/pprof"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
)

func main() {
	set, err := parseFlags(os.Args[1:], os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		os.Exit(2) // the problem and the usage are printed
	}
	if set.cpuprofile != "" {
		f, err := os.Create(set.cpuprofile)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	root, cleanup, err := sandboxRoot(set.sandbox)
	if err != nil {
		fmt.Fprintln(os.Stderr, "everything:", err)
		os.Exit(1)
	}
	opts := set.serverOptions(logger)
	closeBroker, err := set.joinFanOut(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "everything:", err)
		os.Exit(1)
	}
	srv := newServer(opts, root, set.fixtures)
	if set.apps {
		srv.addApp()
	}
	if set.deployed() {
		srv.addDeploymentTools(set.instance, &set.calls)
	}
	watchCtx, stopWatching := context.WithCancel(context.Background())
	go srv.watched.run(watchCtx, set.watchInterval)
	served := srv.Server
	if set.gateway {
		g, err := gateway.New(context.Background(), &gateway.Config{NoNamespace: true, PageSize: set.pageSize,
			Upstreams: []gateway.Upstream{{Name: "everything", Server: srv.Server}}}, &gateway.Options{Logger: logger})
		if err != nil {
			fmt.Fprintln(os.Stderr, "everything:", err)
			os.Exit(1)
		}
		defer g.Close()
		served = g.Server()
	}
	httpOpts := &mcphttp.Options{
		MaxBodyBytes: int64(set.maxMsg), Logger: logger, SessionIDPrefix: set.sessionIDPrefix(),
		TrustedProxies: set.trustedProxies,
	}
	if set.httpAddr != "" && set.auth == authDev {
		err = serveProtected(context.Background(), served, set.httpAddr, set.grace, httpOpts)
	} else if set.httpAddr != "" {
		err = serveHTTP(context.Background(), served, set.httpAddr, set.grace, httpOpts)
	} else {
		opts := &mcp.StdioOptions{Transport: set.transportOptions()}
		err = mcp.RunStdio(context.Background(), served, opts)
	}
	stopWatching()
	srv.Close()
	closeBroker()
	cleanup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "everything:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// server is the contract server and the state its resources share.
type server struct {
	*mcp.Server
	// watched is test://watched-resource, which changes on a timer
	// (watched.run) and when test_trigger_resource_update is called.
	watched *watched
}

// newServer builds the contract server with every tool, resource,
// template and prompt registered (the fixtures too when fixtures is set);
// write_file and read_file work under sandboxDir. The evidence resources
// only an operator may see are registered only when opts.Caller is one: on
// stdio the caller is the same for every request.
func newServer(opts *mcp.Options, sandboxDir string, fixtures bool) *server {
	srv := &server{Server: mcp.NewServer(mcp.Implementation{
		Name:        "mcpwire-everything",
		Version:     "0.1.0",
		Title:       "mcpwire everything server",
		Description: "The contract server of the mcpwire runtime.",
	}, opts)}
	srv.watched = newWatched(srv.Server)
	for _, t := range tools(fixtures) {
		srv.MustAddTool(t)
	}
	for _, t := range sandboxTools(sandboxDir) {
		srv.MustAddTool(t)
	}
	for _, t := range lifecycleTools(srv) {
		srv.MustAddTool(t)
	}
	for _, t := range inputTools() {
		srv.MustAddTool(t)
	}
	for _, t := range taskTools() {
		if err := srv.AddTaskTool(t.tool, t.opts); err != nil {
			panic(err)
		}
	}
	var caller *auth.Principal
	if opts != nil {
		caller = opts.Caller
	}
	for _, r := range resources(srv.watched, caller) {
		srv.MustAddResource(r)
	}
	for _, t := range templates(fixtures) {
		srv.MustAddResourceTemplate(t)
	}
	for _, p := range prompts() {
		srv.MustAddPrompt(p)
	}
	return srv
}
