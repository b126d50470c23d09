package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// Rect is the arguments of the examples' area tool.
type Rect struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// Area is the result of the examples' area tool; its output schema is
// inferred from it.
type Area struct {
	Area int `json:"area"`
}

// silent is the examples' logger: it drops everything.
var silent = slog.New(slog.NewTextHandler(io.Discard, nil))

// calculator is the examples' server: one typed tool, area.
func calculator() *mcp.Server {
	srv := mcp.NewServer(mcp.Implementation{Name: "calculator", Version: "1.0.0"}, &mcp.Options{Logger: silent})
	srv.MustAddTool(tool.New("area", "Multiplies width by height.",
		func(_ context.Context, r Rect) (Area, error) { return Area{r.Width * r.Height}, nil },
		tool.ReadOnly(true)))
	return srv
}

// inProcess serves srv over an in-memory pipe and connects a client to it
// with opts (nil: the defaults, logging nowhere). Closing the client ends
// the server's Serve.
func inProcess(srv *mcp.Server, opts *client.Options) *client.Client {
	serverEnd, clientEnd := transport.Pipe(transport.Options{})
	go srv.Serve(context.Background(), serverEnd)
	if opts == nil {
		opts = &client.Options{}
	}
	if opts.Logger == nil {
		opts.Logger = silent
	}
	c, err := client.Connect(context.Background(), client.Conn{Conn: clientEnd}, opts)
	if err != nil {
		panic(err)
	}
	return c
}

// Connect to a server, list its tools and call one. The server here runs
// in process over transport.Pipe; client.Stdio and client.HTTP reach
// servers elsewhere with the same code.
func Example() {
	srv := calculator()
	serverEnd, clientEnd := transport.Pipe(transport.Options{})
	go srv.Serve(context.Background(), serverEnd)

	ctx := context.Background()
	c, err := client.Connect(ctx, client.Conn{Conn: clientEnd}, &client.Options{Logger: silent})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	fmt.Println("connected to", c.Info().Server.Name, "speaking", c.Info().Revision)

	for t, err := range c.Tools(ctx) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("tool %s: %s\n", t.Name, t.Description)
	}
	res, err := c.CallTool(ctx, "area", Rect{Width: 3, Height: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("text:", res.Content[0].Text.Text)
	fmt.Println("structured:", string(res.StructuredContent))
	// Output:
	// connected to calculator speaking 2026-07-28
	// tool area: Multiplies width by height.
	// text: {"area":12}
	// structured: {"area":12}
}

// CallToolAs decodes a tool's structured content, checked against the
// tool's output schema, into a Go value.
func ExampleCallToolAs() {
	c := inProcess(calculator(), nil)
	defer c.Close()

	a, err := client.CallToolAs[Area](context.Background(), c, "area", Rect{Width: 6, Height: 7})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("area:", a.Area)
	// Output:
	// area: 42
}

// An Admit policy refuses tools the caller does not want a model to see:
// here, those whose annotations say they may destroy. A refused tool is
// left out of Tools, cannot be called, and is in Findings.
func ExampleOptions_admit() {
	srv := calculator()
	srv.MustAddTool(tool.New("wipe", "Deletes everything.",
		func(context.Context, struct{}) (string, error) { return "gone", nil },
		tool.Destructive(true)))

	noDestruction := func(_ protocol.Implementation, t *protocol.Tool) error {
		if a := t.Annotations; a != nil && a.DestructiveHint != nil && *a.DestructiveHint {
			return errors.New("destructive tools are not allowed")
		}
		return nil
	}
	c := inProcess(srv, &client.Options{Admit: noDestruction})
	defer c.Close()

	ctx := context.Background()
	for t, err := range c.Tools(ctx) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("admitted:", t.Name)
	}
	for _, f := range c.Findings() {
		fmt.Printf("finding: gate=%s item=%s rule=%s refused=%v: %s\n", f.Gate, f.Item, f.Rule, f.Refused, f.Message)
	}
	_, err := c.CallTool(ctx, "wipe", nil)
	var f *client.Finding
	fmt.Println("calling wipe is a *Finding:", errors.As(err, &f))
	fmt.Println(err)
	// Output:
	// admitted: area
	// finding: gate=admit item=wipe rule=policy refused=true: destructive tools are not allowed
	// calling wipe is a *Finding: true
	// client: admit refused: wipe: policy: destructive tools are not allowed
}

// Listen follows the server's list changes. On 2026-07-28 it is a
// subscriptions/listen stream: the server acknowledges what it honours
// first, then sends notifications/tools/list_changed when a tool is added
// at run time, and the next Tools lists the new one.
func ExampleClient_Listen() {
	srv := calculator()
	c := inProcess(srv, &client.Options{Era: protocol.Modern})
	defer c.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	yes := true
	for n, err := range c.Listen(ctx, protocol.SubscriptionFilter{ToolsListChanged: &yes}) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("notification:", n.Method)
		if n.Method == protocol.NotificationSubscriptionsAcknowledged {
			// The stream is open: a change from now on is announced on it.
			srv.MustAddTool(tool.New("perimeter", "Adds the four sides.",
				func(_ context.Context, r Rect) (int, error) { return 2 * (r.Width + r.Height), nil }))
			continue
		}
		break // the list changed: stop listening
	}
	for t, err := range c.Tools(ctx) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("tool:", t.Name)
	}
	// Output:
	// notification: notifications/subscriptions/acknowledged
	// notification: notifications/tools/list_changed
	// tool: area
	// tool: perimeter
}

// WithProgress asks the server for progress on a call; the callback gets
// each notifications/progress before the call returns.
func ExampleWithProgress() {
	srv := mcp.NewServer(mcp.Implementation{Name: "worker", Version: "1.0.0"}, &mcp.Options{Logger: silent})
	srv.MustAddTool(tool.New("build", "Builds in three steps.", func(ctx context.Context, _ struct{}) (string, error) {
		for i, step := range []string{"fetch", "compile", "link"} {
			mcp.ReportProgress(ctx, float64(i+1), 3, step)
		}
		return "built", nil
	}))
	c := inProcess(srv, nil)
	defer c.Close()

	ctx := client.WithProgress(context.Background(), func(p protocol.ProgressNotificationParams) {
		fmt.Printf("progress %v/%v: %s\n", p.Progress, *p.Total, p.Message)
	})
	res, err := c.CallTool(ctx, "build", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("result:", res.Content[0].Text.Text)
	// Output:
	// progress 1/3: fetch
	// progress 2/3: compile
	// progress 3/3: link
	// result: built
}

// Options.Elicit answers a server that asks the user for input during a
// call: a legacy server's elicitation/create request, or a 2026-07-28
// input_required result, with the same handler.
func ExampleOptions_elicit() {
	type Name struct {
		Name string `json:"name"`
	}
	srv := mcp.NewServer(mcp.Implementation{Name: "greeter", Version: "1.0.0"}, &mcp.Options{Logger: silent})
	srv.MustAddTool(tool.New("greet", "Asks whom to greet.", func(ctx context.Context, _ struct{}) (string, error) {
		reply, err := ask.ElicitAs[Name](ctx, "Whom should I greet?", ask.Key("who"))
		if err != nil {
			return "", err
		}
		if !reply.Accepted() {
			return "nobody to greet: " + string(reply.Action), nil
		}
		return "Hello, " + reply.Content.Name + "!", nil
	}))

	for _, era := range []protocol.Era{protocol.Legacy, protocol.Modern} {
		c := inProcess(srv, &client.Options{
			Era: era,
			Elicit: func(_ context.Context, p *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
				fmt.Printf("%s: the server asks %q\n", era, p.Form.Message)
				return &protocol.ElicitResult{Action: protocol.ElicitAccept, Content: protocol.Object{"name": []byte(`"Ada"`)}}, nil
			},
		})
		res, err := c.CallTool(context.Background(), "greet", nil)
		if err != nil {
			fmt.Println(err)
		} else {
			fmt.Printf("%s: %s\n", era, res.Content[0].Text.Text)
		}
		c.Close()
	}
	// Output:
	// legacy: the server asks "Whom should I greet?"
	// legacy: Hello, Ada!
	// modern: the server asks "Whom should I greet?"
	// modern: Hello, Ada!
}

// A proxy that asks its own client what the server asks defers the
// 2026-07-28 round (ErrDeferInput), keeps the *InputRound, and resumes
// the request once it has the answers (WithInputResponses): nothing of
// the call waits in between.
func ExampleWithInputResponses() {
	type Name struct {
		Name string `json:"name"`
	}
	srv := mcp.NewServer(mcp.Implementation{Name: "greeter", Version: "1.0.0"}, &mcp.Options{Logger: silent})
	srv.MustAddTool(tool.New("greet", "Asks whom to greet.", func(ctx context.Context, _ struct{}) (string, error) {
		reply, err := ask.ElicitAs[Name](ctx, "Whom should I greet?", ask.Key("who"))
		if err != nil {
			return "", err
		}
		return "Hello, " + reply.Content.Name + "!", nil
	}))
	c := inProcess(srv, &client.Options{
		Era:          protocol.Modern,
		Capabilities: &protocol.ClientCapabilities{Elicitation: &protocol.ElicitationCapability{}},
		AnswerInputs: func(context.Context, map[string]protocol.InputRequest) (map[string]json.RawMessage, error) {
			return nil, client.ErrDeferInput
		},
	})
	defer c.Close()

	_, err := c.CallTool(context.Background(), "greet", nil)
	var round *client.InputRound
	if !errors.As(err, &round) {
		fmt.Println(err)
		return
	}
	fmt.Printf("deferred: %q\n", round.Requests["who"].Elicit.Form.Message)

	// Later, with the answer from wherever the proxy asked:
	answers := map[string]json.RawMessage{"who": json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`)}
	res, err := c.CallTool(client.WithInputResponses(context.Background(), round, answers), "greet", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Content[0].Text.Text)
	// Output:
	// deferred: "Whom should I greet?"
	// Hello, Ada!
}
