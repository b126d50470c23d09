package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/interop/go/internal/harness"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// Checks are the check names a run reports, in order: run.sh's columns.
var Checks = []string{"connect", "era", "tools", "resources", "templates", "prompts", "calls", "reads", "gets", "refusals", "close"}

// callTimeout bounds one tool call, read or get: a tool that waits for
// something this run does not give (a long operation) is cancelled.
const callTimeout = 5 * time.Second

// echoText is the argument of an echo-like tool.
const echoText = "héllo from mcpwire ✓"

// target is the server one run drives and how.
type target struct {
	name    string
	command []string
	http    bool
	path    string
	era     protocol.Era // pinned; EraUnknown detects
	want    protocol.Era // the era the run must reach; EraUnknown: any
	log     io.Writer    // the client's log and the server's stderr
	// args are the arguments of named tools, given instead of none: so
	// that a slow tool can be made quick.
	args map[string]json.RawMessage
}

// drive runs every check against the server t names.
func drive(ctx context.Context, r *harness.Report, t target) {
	// The client's log and the server's stderr share the writer.
	t.log = &lockedWriter{w: t.log}
	notRun := func(after string) {
		for _, c := range Checks[slices.Index(Checks, after)+1:] {
			r.Fail(c, "not connected")
		}
	}
	// A second of grace: some servers keep timers that outlive stdin.
	var tr client.Transport = client.Stdio{Command: t.command, Stderr: t.log, Grace: time.Second}
	if t.http {
		srv, err := startHTTP(ctx, t.command, t.path, t.log)
		if err != nil {
			r.Fail("connect", "starting the HTTP server: %v", err)
			notRun("connect")
			return
		}
		defer srv.stop()
		tr = client.HTTP{URL: srv.url}
	}
	opts := &client.Options{
		Era:    t.era,
		Logger: slog.New(slog.NewTextHandler(t.log, nil)),
		// The server's questions get plain answers, so that tools that
		// ask can finish: a declined form, and one root.
		Elicit: func(context.Context, *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
			return &protocol.ElicitResult{Action: protocol.ElicitDecline}, nil
		},
		Sample: func(context.Context, *protocol.CreateMessageRequestParams) (*protocol.CreateMessageResult, error) {
			return &protocol.CreateMessageResult{Role: protocol.RoleAssistant, Model: "interop",
				Content: protocol.SamplingContent{Blocks: []protocol.SamplingContentBlock{{Text: &protocol.TextContent{Text: "interop sampled reply"}}}}}, nil
		},
		Roots: []protocol.Root{{URI: "file:///interop", Name: "interop"}},
	}
	c, err := client.Connect(ctx, tr, opts)
	if err != nil {
		r.Fail("connect", "%v", err)
		notRun("connect")
		return
	}
	info := c.Info()
	r.Pass("connect", "%s %s, %s %q; %s", info.Server.Name, info.Server.Version, info.Era, info.Revision, info.Detection)
	switch {
	case t.want == protocol.EraUnknown:
		r.Pass("era", "%s", info.Era)
	case info.Era == t.want:
		r.Pass("era", "%s, as expected", info.Era)
	default:
		r.Fail("era", "%s, want %s", info.Era, t.want)
	}

	tools := listTools(ctx, r, c)
	resources := listAll(ctx, r, "resources", info.Capabilities.Resources != nil, c.Resources, func(x *protocol.Resource) string { return x.URI })
	listAll(ctx, r, "templates", info.Capabilities.Resources != nil, c.ResourceTemplates, func(x *protocol.ResourceTemplate) string { return x.Name })
	prompts := listAll(ctx, r, "prompts", info.Capabilities.Prompts != nil, c.Prompts, func(x *protocol.Prompt) string { return x.Name })

	callTools(ctx, r, c, tools, t.args)
	readResources(ctx, r, c, resources)
	getPrompts(ctx, r, c, prompts)
	judgeFindings(r, t.name, c.Findings())

	start := time.Now()
	if err := c.Close(); err != nil {
		r.Fail("close", "%v", err)
	} else {
		r.Pass("close", "closed in %v", time.Since(start).Round(time.Millisecond))
	}
}

// listTools lists every tool the Admit gate lets through.
func listTools(ctx context.Context, r *harness.Report, c *client.Client) []*protocol.Tool {
	var tools []*protocol.Tool
	for tool, err := range c.Tools(ctx) {
		if err != nil {
			r.Fail("tools", "after %d: %v", len(tools), err)
			return tools
		}
		tools = append(tools, tool)
	}
	r.Pass("tools", "%d admitted: %s", len(tools), names(tools, func(t *protocol.Tool) string { return t.Name }))
	return tools
}

// listAll lists every item of one kind the Admit gate lets through, when
// the server declares the capability.
func listAll[T any](ctx context.Context, r *harness.Report, check string, declared bool, seq func(context.Context) iter.Seq2[*T, error], name func(*T) string) []*T {
	if !declared {
		r.Pass(check, "the server declares no such capability: nothing to list")
		return nil
	}
	var items []*T
	for item, err := range seq(ctx) {
		if err != nil {
			r.Fail(check, "after %d: %v", len(items), err)
			return items
		}
		items = append(items, item)
	}
	r.Pass(check, "%d admitted: %s", len(items), names(items, name))
	return items
}

// names joins the first names of items.
func names[T any](items []*T, name func(*T) string) string {
	const most = 12
	var s []string
	for i, x := range items {
		if i == most {
			s = append(s, fmt.Sprintf("… (%d more)", len(items)-most))
			break
		}
		s = append(s, name(x))
	}
	return strings.Join(s, ", ")
}

// schema is what the calls need of an input schema.
type schema struct {
	Required   []string `json:"required"`
	Properties map[string]struct {
		Type any `json:"type"`
	} `json:"properties"`
}

// argsFor returns the arguments to call tool with, and whether to call it:
// none for a tool that requires none, a short text for an echo-like tool
// whose required arguments are all strings.
func argsFor(tool *protocol.Tool) (map[string]any, bool) {
	var s schema
	if err := json.Unmarshal(tool.InputSchema, &s); err != nil {
		return nil, false
	}
	if len(s.Required) == 0 {
		return nil, true
	}
	if !strings.Contains(strings.ToLower(tool.Name), "echo") {
		return nil, false
	}
	args := map[string]any{}
	for _, name := range s.Required {
		if s.Properties[name].Type != "string" {
			return nil, false
		}
		args[name] = echoText
	}
	return args, true
}

// outcome counts what the calls of one check got.
type outcome struct {
	ok, failed, refused, serverErr, timedOut int
	broken                                   []string // calls that lost the connection
}

// note files one call's error under its kind, and reports it as INFO.
func (o *outcome) note(r *harness.Report, what string, err error) {
	var f *client.Finding
	var je *jsonrpc.Error
	switch {
	case err == nil:
		o.ok++
		return
	case errors.As(err, &f):
		o.refused++
	case errors.As(err, &je):
		o.serverErr++
	case errors.Is(err, context.DeadlineExceeded):
		o.timedOut++
	default:
		o.broken = append(o.broken, what+": "+err.Error())
	}
	r.Info("%s: %v", what, err)
}

// report passes the check unless a call lost the connection; refusals are
// judged by the refusals check.
func (o *outcome) report(r *harness.Report, check, unit string, skipped int) {
	detail := fmt.Sprintf("%d %s: %d answered (%d of them isError), %d JSON-RPC errors, %d refused, %d timed out after %v",
		o.ok+o.serverErr+o.refused+o.timedOut+len(o.broken), unit, o.ok, o.failed, o.serverErr, o.refused, o.timedOut, callTimeout)
	if skipped > 0 {
		detail += fmt.Sprintf("; %d not tried (required arguments)", skipped)
	}
	if len(o.broken) > 0 {
		r.Fail(check, "%s; broken: %s", detail, strings.Join(o.broken, "; "))
		return
	}
	r.Pass(check, "%s", detail)
}

// callTools calls each tool argsFor picks.
func callTools(ctx context.Context, r *harness.Report, c *client.Client, tools []*protocol.Tool, given map[string]json.RawMessage) {
	var o outcome
	skipped := 0
	for _, tool := range tools {
		var args any
		if raw, ok := given[tool.Name]; ok {
			args = raw
		} else if m, ok := argsFor(tool); !ok {
			skipped++
			continue
		} else if m != nil {
			args = m
		}
		cctx, cancel := context.WithTimeout(ctx, callTimeout)
		res, err := c.CallTool(cctx, tool.Name, args)
		cancel()
		if err == nil && res.IsError != nil && *res.IsError {
			o.failed++
			r.Info("tools/call %s: isError result", tool.Name)
		}
		o.note(r, "tools/call "+tool.Name, err)
	}
	o.report(r, "calls", "tools called", skipped)
}

// readResources reads every listed resource.
func readResources(ctx context.Context, r *harness.Report, c *client.Client, resources []*protocol.Resource) {
	var o outcome
	for _, res := range resources {
		cctx, cancel := context.WithTimeout(ctx, callTimeout)
		_, err := c.ReadResource(cctx, res.URI)
		cancel()
		o.note(r, "resources/read "+res.URI, err)
	}
	o.report(r, "reads", "resources read", 0)
}

// getPrompts gets every prompt that requires no argument.
func getPrompts(ctx context.Context, r *harness.Report, c *client.Client, prompts []*protocol.Prompt) {
	var o outcome
	skipped := 0
	for _, p := range prompts {
		if slices.ContainsFunc(p.Arguments, func(a protocol.PromptArgument) bool { return a.Required != nil && *a.Required }) {
			skipped++
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, callTimeout)
		_, err := c.GetPrompt(cctx, p.Name, nil)
		cancel()
		o.note(r, "prompts/get "+p.Name, err)
	}
	o.report(r, "gets", "prompts got", skipped)
}

// lockedWriter serializes writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
