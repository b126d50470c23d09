package mcptest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// AddArgs are the arguments of the add tool.
type AddArgs struct {
	A int `json:"a" description:"First addend."`
	B int `json:"b" description:"Second addend."`
}

// Sum is its result.
type Sum struct {
	Sum int `json:"sum"`
}

// A typed tool tested in both eras: the same test, one client per era.
// The client is package client's, as a host uses it: it lists the tools
// and checks each result against its tool's output schema.
func Example() {
	srv := mcp.NewServer(mcp.Implementation{Name: "calc", Version: "1"}, nil)
	srv.MustAddTool(tool.New("add", "Adds two integers.", func(_ context.Context, in AddArgs) (Sum, error) {
		return Sum{in.A + in.B}, nil
	}))

	test(func(t testing.TB) {
		for _, era := range []*client.Options{{Era: protocol.Legacy, ProtocolVersion: "2025-11-25"}, nil} {
			c := mcptest.NewClient(t, srv, era)
			ctx := context.Background()
			for tl, err := range c.Tools(ctx) {
				if err != nil {
					t.Fatal(err)
				}
				fmt.Print(c.Info().Revision, " ", tl.Name, " ")
			}
			sum, err := client.CallToolAs[Sum](ctx, c, "add", AddArgs{A: 2, B: 3})
			if err != nil {
				t.Fatal(err)
			}
			fmt.Println(sum.Sum)
		}
	})
	// Output:
	// 2025-11-25 add 5
	// 2026-07-28 add 5
}

// A tool that asks the user, answered by a scripted reply
// (Options.Elicit): in the legacy era the server sends the client a
// request, in 2026-07-28 it answers input_required and the client
// retries; the test sees the same result.
func ExampleNewClient_elicitation() {
	type Confirm struct {
		OK bool `json:"ok" title:"Go ahead?"`
	}
	srv := mcp.NewServer(mcp.Implementation{Name: "deploy", Version: "1"}, nil)
	srv.MustAddTool(tool.New("deploy", "Deploys after asking.", func(ctx context.Context, _ struct{}) (string, error) {
		reply, err := ask.ElicitAs[Confirm](ctx, "Deploy to production?")
		if err != nil {
			return "", err
		}
		if !reply.Accepted() || !reply.Content.OK {
			return "not deployed", nil
		}
		return "deployed", nil
	}))
	yes := func(_ context.Context, p *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
		fmt.Println("  asked:", p.Form.Message)
		return &protocol.ElicitResult{Action: protocol.ElicitAccept, Content: protocol.Object{"ok": []byte("true")}}, nil
	}

	test(func(t testing.TB) {
		for _, era := range []protocol.Era{protocol.Legacy, protocol.Modern} {
			c := mcptest.NewClient(t, srv, &client.Options{Era: era, Elicit: yes})
			fmt.Println(c.Info().Revision)
			res, err := c.CallTool(context.Background(), "deploy", nil)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Println("  result:", res.Content[0].Text.Text)
		}
	})
	// Output:
	// 2025-11-25
	//   asked: Deploy to production?
	//   result: deployed
	// 2026-07-28
	//   asked: Deploy to production?
	//   result: deployed
}

// Every page, however the server cuts the list.
func ExampleNewClient_pages() {
	srv := mcp.NewServer(mcp.Implementation{Name: "paged", Version: "1"}, &mcp.Options{PageSize: 2})
	for _, name := range []string{"alpha", "beta", "gamma"} {
		srv.MustAddTool(tool.New(name, "Says its name.", func(context.Context, struct{}) (string, error) { return name, nil }))
	}
	test(func(t testing.TB) {
		for tl, err := range mcptest.NewClient(t, srv, nil).Tools(context.Background()) {
			if err != nil {
				t.Fatal(err)
			}
			fmt.Println(tl.Name)
		}
	})
	// Output:
	// alpha
	// beta
	// gamma
}

// test runs body as go test runs a test function, for these examples
// only: in your own tests, t is the test's *testing.T.
func test(body func(t testing.TB)) {
	t := &exampleT{}
	defer t.cleanup()
	body(t)
}

// exampleT is the little of testing.TB that the examples use.
type exampleT struct {
	testing.TB
	cleanups []func()
}

func (t *exampleT) Helper()           {}
func (t *exampleT) Cleanup(f func())  { t.cleanups = append(t.cleanups, f) }
func (t *exampleT) Fatal(args ...any) { panic(fmt.Sprint(args...)) }
func (t *exampleT) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf(format, args...))
}
func (t *exampleT) Errorf(format string, args ...any) {
	fmt.Printf("error: "+format+"\n", args...)
}
func (t *exampleT) Logf(format string, args ...any) {
	fmt.Printf("log: "+format+"\n", args...)
}

func (t *exampleT) cleanup() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}
