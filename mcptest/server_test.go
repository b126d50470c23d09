package mcptest_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// The fixture: a small everything-like server, paged two items at a time.
var (
	toolNames    = []string{"echo", "add", "fail", "confirm", "sample", "roots", "slow"}
	resourceURIs = []string{"test://static-text", "test://static-binary", "test://example"}
	templateURIs = []string{"test://template/{id}/data"}
	promptNames  = []string{"greet", "plain", "third"}
	pixel        = []byte{0x89, 'P', 'N', 'G'}
	staticText   = "This is the content of the static text resource."
	// eras are the client options of each era; nil detects 2026-07-28.
	eras = map[string]*client.Options{
		"legacy 2025-11-25": {Era: protocol.Legacy, ProtocolVersion: "2025-11-25"},
		"legacy 2025-06-18": {Era: protocol.Legacy, ProtocolVersion: "2025-06-18"},
		"modern":            nil,
	}
	quietLogger = slog.New(slog.NewTextHandler(io.Discard, nil))
)

type echoArgs struct {
	Message string `json:"message"`
}

type confirmation struct {
	OK bool `json:"ok"`
}

func everything() *mcp.Server {
	srv := mcp.NewServer(mcp.Implementation{Name: "everything-like", Version: "1"},
		&mcp.Options{PageSize: 2, Logger: quietLogger, ShutdownGrace: 50 * time.Millisecond})
	srv.MustAddTool(tool.New("echo", "Echoes.", func(_ context.Context, in echoArgs) (*tool.Result, error) {
		return tool.TextResult("Echo: " + in.Message), nil
	}))
	srv.MustAddTool(tool.New("add", "Adds.", func(_ context.Context, in AddArgs) (Sum, error) { return Sum{in.A + in.B}, nil }))
	srv.MustAddTool(tool.New("fail", "Fails.", func(context.Context, struct{}) (string, error) {
		return "", errors.New("it went wrong")
	}))
	srv.MustAddTool(tool.New("confirm", "Asks the user.", func(ctx context.Context, _ struct{}) (string, error) {
		reply, err := ask.ElicitAs[confirmation](ctx, "Sure?")
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s %v", reply.Action, reply.Content.OK), nil
	}))
	srv.MustAddTool(tool.New("sample", "Asks the model.", func(ctx context.Context, _ struct{}) (string, error) {
		return ask.SampleText(ctx, "Name it.", 10)
	}))
	srv.MustAddTool(tool.New("roots", "Asks for roots.", func(ctx context.Context, _ struct{}) (string, error) {
		roots, err := ask.Roots(ctx)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%d roots, first %s", len(roots), roots[0].URI), nil
	}))
	srv.MustAddTool(tool.New("slow", "Waits to be cancelled.", func(ctx context.Context, _ struct{}) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}))
	srv.MustAddResource(mcp.Resource{URI: "test://static-text", Name: "static-text", MimeType: "text/plain",
		Read: mcp.StaticRead(staticText)})
	srv.MustAddResource(mcp.Resource{URI: "test://static-binary", Name: "static-binary", MimeType: "image/png",
		Read: mcp.StaticRead(pixel)})
	srv.MustAddResource(mcp.Resource{URI: "test://example", Name: "example", MimeType: "text/plain",
		Read: mcp.StaticRead("example")})
	srv.MustAddResourceTemplate(mcp.ResourceTemplate{URITemplate: "test://template/{id}/data", Name: "template-data",
		Read: func(_ context.Context, uri string, vars map[string]string) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextContents(uri, "application/json", `{"id":"`+vars["id"]+`"}`)}, nil
		}})
	type greetArgs struct {
		Name string `json:"name" description:"Who to greet."`
	}
	srv.MustAddPrompt(mcp.NewPrompt("greet", "Greets.", func(_ context.Context, in greetArgs) (*mcp.PromptResult, error) {
		return &mcp.PromptResult{Messages: []mcp.PromptMessage{mcp.UserMessage("Hello, " + in.Name + "!")}}, nil
	}))
	for _, name := range promptNames[1:] {
		srv.MustAddPrompt(mcp.NewPrompt(name, "Plain.", func(context.Context, struct{}) (*mcp.PromptResult, error) {
			return &mcp.PromptResult{Messages: []mcp.PromptMessage{mcp.UserMessage(name)}}, nil
		}))
	}
	return srv
}

// Scripted replies: each sets an answer of the client's options.
var (
	acceptOK = func(o *client.Options) {
		o.Elicit = func(context.Context, *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
			return &protocol.ElicitResult{Action: protocol.ElicitAccept, Content: protocol.Object{"ok": []byte("true")}}, nil
		}
	}
	decline = func(o *client.Options) {
		o.Elicit = func(context.Context, *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
			return &protocol.ElicitResult{Action: protocol.ElicitDecline}, nil
		}
	}
	model = func(o *client.Options) {
		o.Sample = func(context.Context, *protocol.CreateMessageRequestParams) (*protocol.CreateMessageResult, error) {
			return &protocol.CreateMessageResult{Role: protocol.RoleAssistant, Model: "m",
				Content: protocol.SamplingContent{Blocks: []protocol.SamplingContentBlock{{Text: &protocol.TextContent{Text: "Atlas"}}}}}, nil
		}
	}
	roots = func(o *client.Options) {
		o.Roots = []protocol.Root{{URI: "file:///src"}, {URI: "file:///doc"}}
	}
)

// with returns a copy of era's options (nil: the zero Options) with each
// change applied.
func with(era *client.Options, changes ...func(*client.Options)) *client.Options {
	var o client.Options
	if era != nil {
		o = *era
	}
	for _, change := range changes {
		change(&o)
	}
	return &o
}

// text returns the text of a result's text blocks, joined by newlines.
func text(r *protocol.CallToolResult) string {
	var parts []string
	for _, b := range r.Content {
		if b.Text != nil {
			parts = append(parts, b.Text.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// failed reports that a tool's result has isError set.
func failed(r *protocol.CallToolResult) bool { return r.IsError != nil && *r.IsError }
