#!/usr/bin/env bash
# Benchmarks mcpwire's client package against the clients of the two Go
# MCP SDKs (go-sdk's mcp.Client and mcp-go's client), all three driving the
# same server, bench/mcpwireecho, over stdio and over Streamable HTTP.
#
# Builds bench/mcpwireecho and bench/sdkservers/clientbench (the benchmark
# module, which requires mcpwire through a replace of the repository root)
# into bench/bin, then runs clientbench: for each of ROUNDS rounds (3 by
# default; the order of the clients rotates from round to round) each client
# connects (over stdio it starts the server itself; over HTTP a fresh
# "mcpwire-echo -http 127.0.0.1:0" is started for it), makes warm-up calls,
# then sequential echo calls and calls from 16 goroutines at once. It prints,
# per transport, each client's median figures, measured in the client
# process (latency, calls/s, heap allocations and bytes per call, CPU per
# call by getrusage), and the ratio of mcpwire to the better of the other
# two, paired within each round, with the issue's targets.
#
# It also builds cmd/mcpload into bench/bin and, over HTTP, runs it once per
# round after the clients (clientbench -mcpload): its conc phase, as many
# calls from as many callers as the clients' concurrent phase, against a
# fresh server of its own. The HTTP table then gives mcpwire's concurrent
# calls/s ÷ mcpload's, for the target's "or within 10% of mcpload"; pass
# -mcpload "" to leave it out. "-clients mcpwire,go-sdk,mcp-go,wire" adds
# the wire floor, a hand-written client with no MCP library, and its ratio
# columns.
#
# Usage, from anywhere in the repository:
#
#	bash bench/run-client.sh [clientbench flags]   e.g. bash bench/run-client.sh -n 10000 -m 40000
#	ROUNDS=5 bash bench/run-client.sh
#	bash bench/run-client.sh -clients mcpwire,go-sdk,mcp-go,wire   with the floor
#	bash bench/run-client.sh -transports stdio -clients mcpwire -cpuprofile bench/bin/client.pprof
#	                                               profile mcpwire's client side alone
#
# GOMAXPROCS is printed first; set it in the environment to change it.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/bench/bin"
mkdir -p "$bin"

cd "$root"
echo "building the echo server, mcpload and clientbench..."
go build -o "$bin/mcpwire-echo" ./bench/mcpwireecho
go build -o "$bin/mcpload" ./cmd/mcpload
(cd bench/sdkservers && go build -o "$bin/clientbench" ./clientbench)

exec "$bin/clientbench" -server "$bin/mcpwire-echo" -mcpload "$bin/mcpload" -rounds "${ROUNDS:-3}" "$@"
