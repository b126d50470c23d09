#!/usr/bin/env bash
# Benchmarks mcpwire against the two Go MCP SDKs over Streamable HTTP.
#
# Builds bench/mcpwireecho (mcpwire's handler, package mcphttp), the go-sdk
# and mcp-go echo servers of bench/sdkservers with -http, and ./cmd/mcpload
# into bench/bin. Each of the three serves the same single echo tool on
# 127.0.0.1 with the same http.Server settings. Then, for each of ROUNDS
# rounds (3 by default; the order of the servers rotates from round to
# round), mcpload starts each server with -http, reads its URL from its
# stderr and measures the 2026-07-28 era (stateless POSTs): sequential
# calls, then calls over 64 keep-alive connections at once, the server's CPU
# per call and its peak RSS. With ERAS="modern legacy" the legacy era
# (initialize, then POSTs in the session) is measured too.
#
# It prints, per era, each server's median figures and the paired ratios of
# mcpwire to each SDK (both from the same round) with their geometric mean.
#
# Usage, from anywhere in the repository:
#
#	bash bench/run-http.sh [mcpload flags]     e.g. bash bench/run-http.sh -n 20000
#	ROUNDS=5 ERAS="modern legacy" bash bench/run-http.sh -n 20000
#
# With PIN=1 (on a machine with two or more CPUs and taskset) each server
# runs on CPU 0 and mcpload on CPU 1, so that every server gets one core of
# its own and the driver never competes with it: the figures then compare
# what each server does with one core.
#
# With BASELINE=FILE (a bench/mcpwireecho binary built from an earlier
# commit), that build is measured beside the others as "mcpwire-before",
# so that a change's effect on the figures is a ratio from the same run:
#
#	git worktree add /tmp/before HEAD~3 && (cd /tmp/before && go build -o /tmp/echo-before ./bench/mcpwireecho)
#	BASELINE=/tmp/echo-before ERAS="modern legacy" bash bench/run-http.sh
#
# Each run's JSON report and the server's stderr are kept in
# bench/bin/results/http.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/bench/bin"
results="$bin/results/http"
rounds="${ROUNDS:-3}"
eras="${ERAS:-modern}"
mkdir -p "$results"
rm -f "$results"/*.json

cd "$root"
echo "building mcpload and the three servers..."
go build -o "$bin/mcpload" ./cmd/mcpload
go build -o "$bin/mcpwire-echo" ./bench/mcpwireecho
(cd bench/sdkservers && go build -o "$bin/" ./gosdk ./mcpgo)

names=(mcpwire go-sdk mcp-go)
commands=("$bin/mcpwire-echo" "$bin/gosdk" "$bin/mcpgo")
if [[ -n "${BASELINE:-}" ]]; then
	names+=(mcpwire-before)
	commands+=("$BASELINE")
fi
driver=()
server=()
if [[ "${PIN:-0}" == 1 ]]; then
	driver=(taskset -c 1)
	server=(taskset -c 0)
fi

status=0
for era in $eras; do
	reports=()
	for ((r = 1; r <= rounds; r++)); do
		for ((k = 0; k < ${#names[@]}; k++)); do
			i=$(((k + r - 1) % ${#names[@]}))
			name="${names[$i]}"
			report="$results/$era-r$r-$name.json"
			echo "$era round $r: measuring $name..."
			s=0
			"${driver[@]}" "$bin/mcpload" -http -era "$era" -json -name "$name" -stderr "$results/$era-r$r-$name.stderr" "$@" \
				-- "${server[@]}" "${commands[$i]}" -http 127.0.0.1:0 >"$report" || s=$?
			if [[ $s -gt 1 || ! -s "$report" ]]; then
				echo "no figures for $name (mcpload exit status $s; server stderr in $results/$era-r$r-$name.stderr)" >&2
				rm -f "$report"
				status=1
			fi
		done
		# The reports of one round, in the same order every round.
		for name in "${names[@]}"; do
			[[ -s "$results/$era-r$r-$name.json" ]] && reports+=("$results/$era-r$r-$name.json")
		done
	done
	echo
	echo "== Streamable HTTP, $era era"
	if [[ ${#reports[@]} -eq $((rounds * ${#names[@]})) ]]; then
		"$bin/mcpload" -compare -rounds "$rounds" "${reports[@]}"
	else
		echo "some runs gave no figures; side by side, one report each:"
		"$bin/mcpload" -compare "${reports[@]}" || true
	fi
	echo
done
exit $status
