#!/usr/bin/env bash
# Benchmarks mcpwire against the two Go MCP SDKs and the "limit" server over
# stdio.
#
# Builds bench/mcpwireecho (mcpwire with the single echo tool the other
# servers expose), the go-sdk and mcp-go echo servers and the limit server
# of bench/sdkservers (its own Go module), and ./cmd/mcpload into bench/bin.
# The limit runs in both its modes: limit-scan finds id and
# params.arguments.text with a hand-written scanner and copies the raw JSON
# string into its reply, limit-json decodes and encodes with encoding/json.
# Then, for each of ROUNDS rounds (3 by default; the order of the servers
# rotates from round to round), mcpload runs the same phases against each
# server: sequential and pipelined echo calls, sequential tools/list,
# 1 MiB and 8 MiB echoes with the server's RSS sampled, and -spawns fresh
# processes timed from start to their initialize reply. It prints each
# server's median figures and the ratios of mcpwire to every other server,
# paired within a round, with their geometric mean.
#
# Usage, from anywhere in the repository:
#
#	bash bench/run.sh [mcpload flags]     e.g. bash bench/run.sh -n 30000
#	ROUNDS=5 bash bench/run.sh -n 30000
#	EVERYTHING=1 bash bench/run.sh        also measure ./cmd/everything (30-odd tools)
#	BASELINE=FILE bash bench/run.sh       also measure FILE, a bench/mcpwireecho binary
#	                                      built from an earlier commit, as mcpwire-before
#
# Each run's JSON report and the server's stderr are kept in
# bench/bin/results.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/bench/bin"
results="$bin/results"
rounds="${ROUNDS:-3}"
mkdir -p "$results"
rm -f "$results"/*.json

cd "$root"
echo "building mcpload, the mcpwire echo server, the SDK servers and the limit..."
go build -o "$bin/mcpload" ./cmd/mcpload
go build -o "$bin/mcpwire-echo" ./bench/mcpwireecho
(cd bench/sdkservers && go build -o "$bin/" ./gosdk ./mcpgo ./limit)

names=(mcpwire limit-scan limit-json mcp-go go-sdk)
commands=("$bin/mcpwire-echo" "$bin/limit -mode scan" "$bin/limit -mode json" "$bin/mcpgo" "$bin/gosdk")
if [[ "${EVERYTHING:-0}" == 1 ]]; then
	(cd cmd/everything && go build -o "$bin/mcpwire" .)
	names+=(everything)
	commands+=("$bin/mcpwire")
fi
if [[ -n "${BASELINE:-}" ]]; then
	names+=(mcpwire-before)
	commands+=("$BASELINE")
fi

status=0
reports=()
for ((r = 1; r <= rounds; r++)); do
	for ((k = 0; k < ${#names[@]}; k++)); do
		i=$(((k + r - 1) % ${#names[@]}))
		name="${names[$i]}"
		report="$results/r$r-$name.json"
		echo "round $r: measuring $name..."
		s=0
		# shellcheck disable=SC2086 # the command's words are split on purpose
		"$bin/mcpload" -json -name "$name" -phases seq,pipe,list,big,spawn -stderr "$results/r$r-$name.stderr" "$@" \
			-- ${commands[$i]} >"$report" || s=$?
		# Status 1 means calls failed or a problem was flagged: the report
		# is still complete and lists them. Anything else means no report.
		if [[ $s -gt 1 || ! -s "$report" ]]; then
			echo "no figures for $name (mcpload exit status $s; server stderr in $results/r$r-$name.stderr)" >&2
			rm -f "$report"
			status=1
		fi
	done
	for name in "${names[@]}"; do
		[[ -s "$results/r$r-$name.json" ]] && reports+=("$results/r$r-$name.json")
	done
done

echo
if [[ ${#reports[@]} -eq $((rounds * ${#names[@]})) ]]; then
	"$bin/mcpload" -compare -rounds "$rounds" "${reports[@]}"
else
	echo "some runs gave no figures; side by side, one report each:"
	"$bin/mcpload" -compare "${reports[@]}" || true
fi
exit $status
