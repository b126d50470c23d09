#!/usr/bin/env bash
# Soak and scale measurements of mcpwire over stdio (issue 17).
#
# Builds bench/mcpwireecho and ./cmd/mcpload into bench/bin, then runs three
# mcpload jobs against one bench/mcpwireecho process each:
#
#   soak:      SOAK_N sequential and then SOAK_N pipelined echo calls (64
#              outstanding) on one process, VmRSS and the goroutine count
#              (the server's -stats file) sampled every SOAK_EVERY calls;
#   overload:  SLOW_N calls of the slow tool sent at once with the default
#              limits (64 running, 1,024 queued): the rest must be refused
#              as overloaded at once;
#   queued:    the same with -max-queued SLOW_N, so that every call waits:
#              the RSS growth divided by the calls is the memory per queued
#              call.
#
# Usage, from anywhere in the repository:
#
#	bash bench/run-scale.sh
#	SOAK_N=200000 SOAK_EVERY=20000 bash bench/run-scale.sh
#
# Reports (JSON) and the servers' stderr are kept in bench/bin/results/scale.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/bench/bin"
results="$bin/results/scale"
mkdir -p "$results"
soak_n="${SOAK_N:-1000000}"
soak_every="${SOAK_EVERY:-100000}"
slow_n="${SLOW_N:-10000}"
slow_ms="${SLOW_MS:-3000}"
queued_ms="${QUEUED_MS:-300}" # 10,000 calls 64 at a time: about 47 s

cd "$root"
go build -o "$bin/mcpload" ./cmd/mcpload
go build -o "$bin/mcpwire-echo" ./bench/mcpwireecho

stats="$results/stats.txt"
run() {
	local name="$1"
	shift
	echo "== $name"
	"$bin/mcpload" -name "$name" -stats "$stats" -stderr "$results/$name.stderr" "$@"
	echo
}
run soak -phases soak -soak-n "$soak_n" -soak-every "$soak_every" -- "$bin/mcpwire-echo" -stats "$stats"
run overload -phases slow -slow-n "$slow_n" -slow-ms "$slow_ms" -- "$bin/mcpwire-echo" -slow -stats "$stats"
run queued -phases slow -slow-n "$slow_n" -slow-ms "$queued_ms" -timeout 300s -- "$bin/mcpwire-echo" -slow -max-queued "$slow_n" -stats "$stats"
