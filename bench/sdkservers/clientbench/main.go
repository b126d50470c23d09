// Command clientbench measures three MCP client libraries against the same
// server: mcpwire's client package, go-sdk's mcp.Client and mcp-go's
// client, each over stdio (the client starts the server) and over
// Streamable HTTP (a fresh "SERVER -http 127.0.0.1:0" per measurement).
// bench/run-client.sh builds it and bench/mcpwireecho and runs it.
//
//	clientbench -server bench/bin/mcpwire-echo [-rounds 3] [-n 5000] [-m 20000] [-c 16]
//
// Per client and transport it measures, in the client process: the median
// latency and rate of sequential echo calls, the rate of calls spread over
// -c goroutines sharing one connection, the heap allocations and bytes per
// sequential call (runtime.MemStats around the calls) and the CPU per call
// (getrusage of the client process, which leaves out the server). The
// order of the clients rotates from round to round; the table shows each
// figure's median over the rounds and the ratio of mcpwire to the better
// of the other two, paired within each round (geometric mean, then each
// round's).
//
// Over HTTP every client gets an http.Client of its own on a clone of
// http.DefaultTransport that keeps -c idle connections to the host, so that
// no client pays for reconnecting when its concurrent calls outnumber the
// default's two idle connections.
//
// -clients picks the clients; besides the three libraries it knows
// mcpwire-nocache (mcpwire without its response cache) and wire, the floor
// of wire.go: a hand-written client of a few pre-encoded lines, which
// shows what the server and the transport cost with no client library.
// Its columns give mcpwire ÷ wire and wire ÷ the better other.
//
// -mcpload BIN runs cmd/mcpload (built to BIN) over HTTP once per round
// after the clients, against a fresh server of its own, with its conc
// phase of -m calls from -c callers; the HTTP table then gives mcpwire's
// concurrent calls/s ÷ mcpload's, for the target's "or within 10% of
// mcpload".
//
// -cpuprofile FILE writes a CPU profile of the whole run and -memprofile
// FILE one of its allocations (each sampled, which slows the run); with
// -clients mcpwire they profile mcpwire's client side alone.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"
)

func main() {
	server := flag.String("server", "", "the echo server `binary` (bench/mcpwireecho); it must serve stdio, and Streamable HTTP with -http ADDR")
	rounds := flag.Int("rounds", 3, "rounds, the order of the clients rotating")
	var p plan
	flag.IntVar(&p.warmup, "warmup", 500, "calls before measuring")
	flag.IntVar(&p.sequential, "n", 5000, "sequential calls")
	flag.IntVar(&p.concurrent, "m", 20000, "concurrent calls in all")
	flag.IntVar(&p.workers, "c", 16, "goroutines of the concurrent phase")
	flag.StringVar(&p.text, "text", "hello, benchmark", "the echo tool's argument")
	transports := flag.String("transports", "stdio,http", "comma-separated: stdio, http")
	clients := flag.String("clients", "mcpwire,go-sdk,mcp-go", "comma-separated clients to measure (also: mcpwire-nocache, wire)")
	mcpload := flag.String("mcpload", "", "over HTTP, also run cmd/mcpload's conc phase, built to `BIN`, once per round")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the run to `FILE`")
	memprofile := flag.String("memprofile", "", "write a heap profile (every allocation sampled) at the end of the run to `FILE`")
	flag.Parse()
	if *server == "" || *rounds < 1 || p.workers < 1 || p.sequential < 1 || p.concurrent < p.workers {
		flag.Usage()
		os.Exit(2)
	}
	libs := pick(strings.Split(*clients, ","))
	if len(libs) == 0 {
		fmt.Fprintln(os.Stderr, "clientbench: no known client in -clients")
		os.Exit(2)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "clientbench:", err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "clientbench:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if *memprofile != "" {
		runtime.MemProfileRate = 1
		defer writeHeapProfile(*memprofile)
	}

	fmt.Printf("GOMAXPROCS=%d NumCPU=%d %s; %d rounds; %d sequential and %d concurrent calls (%d goroutines) per client, %d warm-up\n",
		runtime.GOMAXPROCS(0), runtime.NumCPU(), runtime.Version(), *rounds, p.sequential, p.concurrent, p.workers, p.warmup)
	failed := false
	for _, tr := range strings.Split(*transports, ",") {
		results := make([]map[string]figures, *rounds)
		var loads []loadFigures
		for r := range *rounds {
			results[r] = map[string]figures{}
			for k := range libs {
				lib := libs[(k+r)%len(libs)]
				fmt.Fprintf(os.Stderr, "%s round %d: %s...\n", tr, r+1, lib.name)
				f, err := run(tr, *server, lib, p)
				if err != nil {
					fmt.Fprintf(os.Stderr, "clientbench: %s over %s, round %d: %v\n", lib.name, tr, r+1, err)
					failed = true
					continue
				}
				results[r][lib.name] = f
			}
			if tr == "http" && *mcpload != "" {
				fmt.Fprintf(os.Stderr, "%s round %d: mcpload...\n", tr, r+1)
				l, err := runMCPLoad(context.Background(), *mcpload, *server, p)
				if err != nil {
					fmt.Fprintf(os.Stderr, "clientbench: mcpload, round %d: %v\n", r+1, err)
					failed = true
				}
				loads = append(loads, l) // zero when it failed
			}
		}
		fmt.Println()
		report(os.Stdout, tr, libs, results, loads)
	}
	if failed {
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// writeHeapProfile writes the allocations profile to path.
func writeHeapProfile(path string) {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("allocs").WriteTo(f, 0)
		f.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "clientbench:", err)
	}
}

// pick returns the libraries named, in the order of libraries.
func pick(names []string) []library {
	var out []library
	for _, l := range libraries {
		if slices.Contains(names, l.name) {
			out = append(out, l)
		}
	}
	return out
}

// run measures lib over the transport tr ("stdio" or "http") against
// server, within two minutes.
func run(tr, server string, lib library, p plan) (figures, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	switch tr {
	case "stdio":
		return measure(ctx, lib, target{command: []string{server}}, p)
	case "http":
		s, err := startHTTP(server)
		if err != nil {
			return figures{}, err
		}
		defer s.stop()
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = p.workers
		defer t.CloseIdleConnections()
		return measure(ctx, lib, target{url: s.url, http: &http.Client{Transport: t}}, p)
	}
	return figures{}, fmt.Errorf("unknown transport %q (stdio or http)", tr)
}
