#!/usr/bin/env bash
# Benchmarks mcpwire against the two Go MCP SDKs over stdio.
#
# Builds ./cmd/everything (mcpwire), the go-sdk and mcp-go echo servers in
# bench/sdkservers, and ./cmd/mcpload into bench/bin, runs mcpload with the
# same flags against each server, then prints the figures side by side with
# the ratios of mcpwire to each SDK. If ./cmd/everything does not build, the
# SDK servers are still measured and compared with each other.
#
# Usage, from anywhere in the repository:
#
#	bash bench/run.sh [mcpload flags]     e.g. bash bench/run.sh -n 50000
#
# Each server's JSON report and stderr are kept in bench/bin/results.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/bench/bin"
results="$bin/results"
mkdir -p "$results"
rm -f "$results"/*.json

cd "$root"
echo "building mcpload and the SDK servers..."
go build -o "$bin/mcpload" ./cmd/mcpload
(cd bench/sdkservers && go build -o "$bin/" ./gosdk ./mcpgo)

names=()
commands=()
if (cd cmd/everything && go build -o "$bin/mcpwire" .) 2>"$results/mcpwire-build.log"; then
	names+=(mcpwire)
	commands+=("$bin/mcpwire")
else
	echo "skipping mcpwire: ./cmd/everything does not build (see $results/mcpwire-build.log)"
fi
names+=(mcp-go go-sdk)
commands+=("$bin/mcpgo" "$bin/gosdk")

reports=()
for i in "${!names[@]}"; do
	name="${names[$i]}"
	report="$results/$name.json"
	echo "measuring $name..."
	status=0
	"$bin/mcpload" -json -name "$name" -stderr "$results/$name.stderr" "$@" -- "${commands[$i]}" >"$report" || status=$?
	# Status 1 means calls failed or a problem was flagged: the report is
	# still complete and lists them. Anything else means no report.
	if [[ $status -le 1 && -s "$report" ]]; then
		reports+=("$report")
	else
		echo "no figures for $name (mcpload exit status $status; server stderr in $results/$name.stderr)"
		rm -f "$report"
	fi
done

if [[ ${#reports[@]} -eq 0 ]]; then
	echo "no server could be measured" >&2
	exit 1
fi
echo
"$bin/mcpload" -compare "${reports[@]}"
