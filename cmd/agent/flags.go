package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/client"
)

// target is one server to connect to: how to reach it, and how to name it
// until its serverInfo does.
type target struct {
	label     string // "stdio ./server" or "http URL", for messages
	transport client.Transport
}

// config is what the command line asks for.
type config struct {
	targets          []target
	planPath         string
	allowDestructive bool
	stepTimeout      time.Duration
	connectTimeout   time.Duration
}

// parseArgs parses the command line; usage errors are written to errOut.
func parseArgs(args []string, errOut io.Writer) (*config, error) {
	cfg := &config{}
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.Func("stdio", `a server to start as a subprocess: "command args" (repeatable)`, func(s string) error {
		argv := strings.Fields(s)
		if len(argv) == 0 {
			return errors.New("empty command")
		}
		cfg.targets = append(cfg.targets, target{label: "stdio " + s,
			transport: client.Stdio{Command: argv, Stderr: errOut}})
		return nil
	})
	fs.Func("http", "a Streamable HTTP endpoint URL (repeatable)", func(s string) error {
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%q is not an http or https URL", s)
		}
		cfg.targets = append(cfg.targets, target{label: "http " + s, transport: client.HTTP{URL: s}})
		return nil
	})
	fs.StringVar(&cfg.planPath, "plan", "", "a file of steps, `server tool {json}` a line or a JSON array (default: the built-in plan)")
	fs.BoolVar(&cfg.allowDestructive, "allow-destructive", false, "admit tools that may be destructive")
	fs.DurationVar(&cfg.stepTimeout, "step-timeout", 30*time.Second, "bound on each step")
	fs.DurationVar(&cfg.connectTimeout, "connect-timeout", 30*time.Second, "bound on connecting to each server")
	fs.Usage = func() {
		fmt.Fprintln(errOut, "usage: agent [flags] (--stdio \"command args\" | --http URL)...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	var err error
	switch {
	case fs.NArg() > 0:
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case len(cfg.targets) == 0:
		err = errors.New("no server: give at least one --stdio or --http")
	default:
		return cfg, nil
	}
	fmt.Fprintln(errOut, "agent:", err)
	fs.Usage()
	return nil, err
}
