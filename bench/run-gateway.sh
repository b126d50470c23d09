#!/usr/bin/env bash
# Measures what mcpwire gateway costs: cmd/everything's echo tool called
# directly, through mcpwire gateway in front of it (names as they are),
# through the gateway package in the same process (everything -gateway),
# and through bench/relay (bytes forwarded by a process that reads none:
# the floor of a gateway in a process of its own), side by side in each round, over stdio (sequential and 64 pipelined
# calls) and over Streamable HTTP in the 2026-07-28 era (sequential calls,
# and calls from 64 keep-alive connections at once). Over stdio the
# gateway runs cmd/everything as its stdio upstream; over HTTP it serves
# its own endpoint in front of everything -http (interop/gateway/front.sh).
#
# For each of ROUNDS rounds (3 by default; the order alternates) mcpload
# measures the four; it prints each one's median figures and the paired
# ratios of each to the direct connection with their geometric mean. CPU
# and memory figures of the gateway and relay rows are those of the
# process in front (front.sh's shell over HTTP); read calls/s and latency.
#
# Usage, from anywhere in the repository:
#
#	bash bench/run-gateway.sh [mcpload flags]     e.g. bash bench/run-gateway.sh -n 20000
#
# Reports and stderr are kept in bench/bin/results/gateway.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/bench/bin"
results="$bin/results/gateway"
rounds="${ROUNDS:-3}"
mkdir -p "$results"
rm -f "$results"/*.json

cd "$root"
echo "building mcpload, cmd/everything, cmd/mcpwire and bench/relay..."
go build -o "$bin/mcpload" ./cmd/mcpload
go build -o "$bin/mcpwire-cli" ./cmd/mcpwire
go build -o "$bin/relay" ./bench/relay
(cd cmd/everything && go build -o "$bin/everything" .)
front="$bin/everything-via-gateway"
printf '#!/bin/sh\nGATEWAY_EVERYTHING=%q GATEWAY_MCPWIRE=%q exec %q "$@"\n' "$bin/everything" "$bin/mcpwire-cli" "$root/interop/gateway/front.sh" >"$front"
chmod +x "$front"

# gateway: mcpwire gateway in a process of its own, cmd/everything in
# another; in-process: cmd/everything -gateway, the gateway package in
# front of the server in one process; relay: bench/relay in front of
# cmd/everything, a process that forwards bytes and reads none (the floor
# of any gateway in a process of its own); direct: cmd/everything alone.
names=(gateway in-process relay direct)
commands=("$front" "$bin/everything -gateway" "$bin/relay $bin/everything" "$bin/everything")
status=0
for transport in stdio http; do
	reports=()
	for ((r = 1; r <= rounds; r++)); do
		for ((k = 0; k < ${#names[@]}; k++)); do
			i=$(((k + r - 1) % ${#names[@]}))
			name="${names[$i]}"
			report="$results/$transport-r$r-$name.json"
			echo "$transport round $r: measuring $name..."
			s=0
			if [[ $transport == http ]]; then
				"$bin/mcpload" -http -json -name "$name" -phases seq,conc -stderr "$results/$transport-r$r-$name.stderr" "$@" \
					-- ${commands[$i]} -http 127.0.0.1:0 >"$report" || s=$?
			else
				"$bin/mcpload" -json -name "$name" -phases seq,pipe -stderr "$results/$transport-r$r-$name.stderr" "$@" \
					-- ${commands[$i]} >"$report" || s=$?
			fi
			if [[ $s -gt 1 || ! -s "$report" ]]; then
				echo "no figures for $name (mcpload exit status $s; stderr in $results/$transport-r$r-$name.stderr)" >&2
				rm -f "$report"
				status=1
			fi
		done
	done
	for subject in gateway in-process relay; do
		reports=()
		for ((r = 1; r <= rounds; r++)); do
			reports+=("$results/$transport-r$r-$subject.json" "$results/$transport-r$r-direct.json")
		done
		echo
		echo "== $transport: $subject against a direct connection"
		"$bin/mcpload" -compare -rounds "$rounds" "${reports[@]}" || status=1
	done
	echo
done
exit $status
