// Command mcpwireecho is the mcpwire side of the Streamable HTTP benchmark
// (bench/run-http.sh): an mcpwire server with the single echo tool that the
// comparison servers in bench/sdkservers expose, so that the three servers
// differ only in their library.
//
//	mcpwireecho -http 127.0.0.1:0   serve http://ADDR/mcp until SIGINT or SIGTERM
//	mcpwireecho                      serve stdio
//
// With -http the bound address is printed to stderr as
// "mcpwireecho: listening on http://127.0.0.1:PORT/mcp" before anything is
// served. -cpuprofile writes a CPU profile until the server stops.
//
// For mcpload's soak and slow phases (bench/run-scale.sh): -stats FILE
// rewrites FILE every 20 ms with "goroutines=N heap_inuse=BYTES"; -slow
// adds a second tool, slow, which sleeps for its "ms" argument (or until
// cancelled); -max-queued sets Options.MaxQueuedCalls. Without them the
// server has the one echo tool and the default options.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/tool"
)

// slowArgs is the input of the slow tool.
type slowArgs struct {
	MS int `json:"ms" description:"milliseconds to sleep"`
}

// echoArgs is the input of the echo tool.
type echoArgs struct {
	Text string `json:"text" description:"the text to return unchanged"`
}

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP at http://`ADDR`/mcp instead of stdio")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to `FILE`")
	stats := flag.String("stats", "", "rewrite `FILE` every 20 ms with the goroutine count and heap in use")
	slow := flag.Bool("slow", false, "add the slow tool")
	maxQueued := flag.Int("max-queued", 0, "Options.MaxQueuedCalls (0: the default)")
	flag.Parse()
	if *stats != "" {
		go writeStats(*stats)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv := mcp.NewServer(mcp.Implementation{Name: "mcpwire-echo", Version: "0"}, &mcp.Options{Logger: logger, MaxQueuedCalls: *maxQueued})
	srv.MustAddTool(tool.New("echo", "Return the given text unchanged.",
		func(_ context.Context, in echoArgs) (*tool.Result, error) {
			return tool.TextResult(in.Text), nil
		}))
	if *slow {
		srv.MustAddTool(tool.New("slow", "Sleep for the given milliseconds.",
			func(ctx context.Context, in slowArgs) (*tool.Result, error) {
				select {
				case <-time.After(time.Duration(in.MS) * time.Millisecond):
				case <-ctx.Done():
				}
				return tool.TextResult("done"), nil
			}))
	}
	var err error
	if *addr != "" {
		err = serveHTTP(*addr, srv, logger)
	} else {
		err = mcp.RunStdio(context.Background(), srv, nil)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpwireecho:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// writeStats rewrites path every 20 ms with the goroutine count and the
// heap in use, for mcpload's -stats.
func writeStats(path string) {
	var ms runtime.MemStats
	for range time.Tick(20 * time.Millisecond) {
		runtime.ReadMemStats(&ms)
		line := fmt.Sprintf("goroutines=%d heap_inuse=%d\n", runtime.NumGoroutine()-1, ms.HeapInuse)
		if os.WriteFile(path+".tmp", []byte(line), 0o644) == nil {
			_ = os.Rename(path+".tmp", path)
		}
	}
}

// serveHTTP serves srv at http://addr/mcp until SIGINT or SIGTERM, through
// mcphttp.ListenAndServe (its http.Server timeouts match the comparison
// servers').
func serveHTTP(addr string, srv *mcp.Server, logger *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return mcphttp.ListenAndServe(ctx, addr, srv, &mcphttp.ServeOptions{
		Options:  mcphttp.Options{Logger: logger},
		OnListen: func(url string) { fmt.Fprintf(os.Stderr, "mcpwireecho: listening on %s\n", url) },
	})
}
