package mcptest_test

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/jsonrpc"
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

// logLevels returns options that keep the level of every log message
// (notifications/message) the server sends, and what they kept.
func logLevels(era *client.Options) (*client.Options, func() []string) {
	var mu sync.Mutex
	var levels []string
	o := with(era, func(o *client.Options) {
		o.OnNotification = func(n *jsonrpc.Notification) {
			var p protocol.LoggingMessageNotificationParams
			if n.Method == protocol.NotificationMessage && json.Unmarshal(n.Params, &p) == nil {
				mu.Lock()
				levels = append(levels, string(p.Level))
				mu.Unlock()
			}
		}
	})
	return o, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), levels...)
	}
}

// Progress, log messages at the level asked for and completion, in both
// eras.
func TestProgressLogComplete(t *testing.T) {
	for _, era := range []*client.Options{{Era: protocol.Legacy}, nil} {
		opts, logs := logLevels(era)
		c := mcptest.NewClient(t, reporter(), opts)
		rev := c.Info().Revision
		ctx := t.Context()
		var steps []string
		res, err := c.CallTool(client.WithProgress(ctx, func(p protocol.ProgressNotificationParams) {
			steps = append(steps, fmt.Sprintf("%g/%g %s", p.Progress, *p.Total, p.Message))
		}), "slow", nil)
		if err != nil || !strings.Contains(text(res), "done") {
			t.Fatalf("%s: %v, %+v", rev, err, res)
		}
		if want := []string{"1/3 step 1", "2/3 step 2", "3/3 step 3"}; !slices.Equal(steps, want) {
			t.Errorf("%s: progress %q, want %q", rev, steps, want)
		}
		before := len(logs())
		if rev == protocol.Latest.String() && before != 0 {
			t.Errorf("%s: %d log messages before SetLogLevel", rev, before)
		}
		if err := c.SetLogLevel(ctx, protocol.LevelDebug); err != nil {
			t.Fatal(err)
		}
		if _, err := c.CallTool(ctx, "slow", nil); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(logs()[before:], ","); got != "info,debug,info,debug,info,debug" {
			t.Errorf("%s: log levels %q, want info and debug of three steps", rev, got)
		}
		got, err := c.Complete(ctx, protocol.CompletionReference{Prompt: &protocol.PromptReference{Name: "forecast"}}, "city", "Par")
		if err != nil || !slices.Equal(got.Values, []string{"Paris", "Parma"}) {
			t.Errorf("%s: Complete = %+v, %v", rev, got, err)
		}
		if _, err := c.Complete(ctx, protocol.CompletionReference{Prompt: &protocol.PromptReference{Name: "nope"}}, "city", ""); err == nil {
			t.Errorf("%s: Complete of an unknown prompt: no error", rev)
		}
	}
}

// A tool's progress (client.WithProgress), its log lines
// (Options.OnNotification) and a prompt argument's completion, observed
// by a test.
func ExampleNewClient_progress() {
	test(func(t testing.TB) {
		c := mcptest.NewClient(t, reporter(), &client.Options{
			OnNotification: func(n *jsonrpc.Notification) {
				var p protocol.LoggingMessageNotificationParams
				if n.Method == protocol.NotificationMessage && json.Unmarshal(n.Params, &p) == nil {
					fmt.Println("log:", p.Level, string(p.Data))
				}
			},
		})
		ctx := context.Background()
		if err := c.SetLogLevel(ctx, protocol.LevelInfo); err != nil {
			t.Fatal(err)
		}
		res, err := c.CallTool(client.WithProgress(ctx, func(p protocol.ProgressNotificationParams) {
			fmt.Printf("progress: %g of %g, %s\n", p.Progress, *p.Total, p.Message)
		}), "slow", nil)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("result:", res.Content[0].Text.Text)
		cities, err := c.Complete(ctx, protocol.CompletionReference{Prompt: &protocol.PromptReference{Name: "forecast"}}, "city", "Pa")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("completion:", cities.Values)
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
