package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
)

// runGateway is mcpwire gateway: the upstreams of a configuration file
// served as one server, on stdio (the process's own) or over Streamable
// HTTP. Logs go to stderr; on stdio, stdout carries nothing but the
// protocol. Exit status: 0 when it stopped cleanly (stdin closed, a
// signal), 1 when serving failed, 2 when it could not start.
func runGateway(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("gateway", flag.ContinueOnError)
	fs.SetOutput(stderr)
	config := fs.String("config", "", "the configuration file (YAML or JSON); required")
	addr := fs.String("http", "", "serve over Streamable HTTP at http://ADDR/mcp instead of stdio")
	if err := fs.Parse(args); err != nil || *config == "" || fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mcpwire gateway: --config FILE is required\n\n%s", usage)
		return exitNotRun
	}
	data, err := os.ReadFile(*config)
	if err != nil {
		fmt.Fprintln(stderr, "mcpwire gateway:", err)
		return exitNotRun
	}
	cfg, err := gateway.ParseConfig(data)
	if err != nil {
		fmt.Fprintln(stderr, "mcpwire gateway:", err)
		return exitNotRun
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	g, err := gateway.New(ctx, cfg, &gateway.Options{Logger: logger})
	if err != nil {
		fmt.Fprintln(stderr, "mcpwire gateway:", err)
		return exitNotRun
	}
	defer g.Close()
	if *addr != "" {
		err = mcphttp.ListenAndServe(ctx, *addr, g.Server(), &mcphttp.ServeOptions{
			Options:  mcphttp.Options{Logger: logger},
			OnListen: func(url string) { logger.Info("mcpwire gateway: serving", "url", url) },
		})
	} else {
		err = mcp.RunStdio(ctx, g.Server(), nil) // the process's own stdin and stdout
	}
	if err != nil && ctx.Err() == nil {
		fmt.Fprintln(stderr, "mcpwire gateway:", err)
		return 1 // it served, then failed
	}
	return exitOK
}
