package mcptest_test

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// CityArgs are the arguments of the forecast prompt.
type CityArgs struct {
	City string `json:"city" description:"The city."`
}

// reporter is a server whose slow tool reports progress and logs, and
// whose prompt completes its argument.
func reporter() *mcp.Server {
	srv := mcp.NewServer(mcp.Implementation{Name: "reporter", Version: "1"}, &mcp.Options{Logger: slog.New(slog.DiscardHandler)})
	srv.MustAddTool(tool.New("slow", "Works in three steps.", func(ctx context.Context, _ struct{}) (string, error) {
		for i := 1; i <= 3; i++ {
			mcp.Logger(ctx).Info("step", "n", i)
			mcp.Logger(ctx).Debug("detail", "n", i)
			if err := mcp.ReportProgress(ctx, float64(i), 3, fmt.Sprintf("step %d", i)); err != nil {
				return "", err
			}
		}
		return "done", nil
	}))
	forecast := mcp.NewPrompt("forecast", "The weather of a city.", func(_ context.Context, in CityArgs) (*mcp.PromptResult, error) {
		return &mcp.PromptResult{}, nil
	})
	forecast.Complete = map[string]mcp.CompleteFunc{"city": mcp.CompletePrefix("Paris", "Parma", "Porto")}
	srv.MustAddPrompt(forecast)
	return srv
}

// Progress, log messages at the level asked for and completion, in both
// eras.
func TestProgressLogComplete(t *testing.T) {
	for _, era := range []mcptest.Option{mcptest.Legacy(""), mcptest.Modern()} {
		var mu sync.Mutex
		var logs []string
		c := mcptest.NewClient(t, reporter(), era, mcptest.OnLog(func(p protocol.LoggingMessageNotificationParams) {
			mu.Lock()
			logs = append(logs, string(p.Level))
			mu.Unlock()
		}))
		ctx := t.Context()
		var steps []string
		res, err := c.CallToolProgress(ctx, "slow", nil, func(p protocol.ProgressNotificationParams) {
			steps = append(steps, fmt.Sprintf("%g/%g %s", p.Progress, *p.Total, p.Message))
		})
		if err != nil || !strings.Contains(res.Text(), "done") {
			t.Fatalf("%s: %v, %+v", c.Revision(), err, res)
		}
		if want := []string{"1/3 step 1", "2/3 step 2", "3/3 step 3"}; !slices.Equal(steps, want) {
			t.Errorf("%s: progress %q, want %q", c.Revision(), steps, want)
		}
		mu.Lock()
		before := len(logs)
		mu.Unlock()
		if c.Revision() == protocol.Latest.String() && before != 0 {
			t.Errorf("%s: %d log messages before SetLogLevel", c.Revision(), before)
		}
		if err := c.SetLogLevel(ctx, protocol.LevelDebug); err != nil {
			t.Fatal(err)
		}
		steps = nil
		if _, err := c.CallTool(ctx, "slow", nil); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		got := strings.Join(logs[before:], ",")
		mu.Unlock()
		if got != "info,debug,info,debug,info,debug" {
			t.Errorf("%s: log levels %q, want info and debug of three steps", c.Revision(), got)
		}
		if len(steps) != 0 {
			t.Errorf("%s: progress %q after the call returned", c.Revision(), steps)
		}
		vals, err := c.Complete(ctx, protocol.CompletionReference{Prompt: &protocol.PromptReference{Name: "forecast"}}, "city", "Par")
		if err != nil || !slices.Equal(vals, []string{"Paris", "Parma"}) {
			t.Errorf("%s: Complete = %q, %v", c.Revision(), vals, err)
		}
		if _, err := c.Complete(ctx, protocol.CompletionReference{Prompt: &protocol.PromptReference{Name: "nope"}}, "city", ""); err == nil {
			t.Errorf("%s: Complete of an unknown prompt: no error", c.Revision())
		}
	}
}

// A tool's progress, its log lines and a prompt argument's completion,
// observed by a test.
func ExampleClient_CallToolProgress() {
	test(func(t testing.TB) {
		c := mcptest.NewClient(t, reporter(), mcptest.OnLog(func(p protocol.LoggingMessageNotificationParams) {
			fmt.Println("log:", p.Level, string(p.Data))
		}))
		ctx := context.Background()
		if err := c.SetLogLevel(ctx, protocol.LevelInfo); err != nil {
			t.Fatal(err)
		}
		res, err := c.CallToolProgress(ctx, "slow", nil, func(p protocol.ProgressNotificationParams) {
			fmt.Printf("progress: %g of %g, %s\n", p.Progress, *p.Total, p.Message)
		})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("result:", res.Text())
		cities, err := c.Complete(ctx, protocol.CompletionReference{Prompt: &protocol.PromptReference{Name: "forecast"}}, "city", "Pa")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("completion:", cities)
	})
	// Output:
	// log: info {"message":"step","n":1}
	// progress: 1 of 3, step 1
	// log: info {"message":"step","n":2}
	// progress: 2 of 3, step 2
	// log: info {"message":"step","n":3}
	// progress: 3 of 3, step 3
	// result: done
	// completion: [Paris Parma]
}
