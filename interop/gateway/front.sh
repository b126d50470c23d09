#!/usr/bin/env bash
# front.sh is cmd/everything behind mcpwire gateway, started as the interop
# clients start a server: `front.sh [ARGS]` speaks MCP on stdio (the
# gateway on stdio, cmd/everything its stdio upstream), and
# `front.sh -http 127.0.0.1:0 [ARGS]` serves the gateway over Streamable
# HTTP in front of `everything -http 127.0.0.1:0 ARGS`, logging the line
# the clients wait for ("everything: listening on URL", the gateway's
# URL). ARGS go to cmd/everything. The gateway serves names as they are
# (noNamespace) and pages its lists as -page-size in ARGS says, so the
# clients' checks run unchanged. SIGTERM (or stdin
# closing, on stdio) ends the gateway, which exits as it would alone; its
# status is front.sh's.
#
# Environment: GATEWAY_EVERYTHING and GATEWAY_MCPWIRE, the two binaries.
set -euo pipefail
everything="${GATEWAY_EVERYTHING:?the cmd/everything binary}"
mcpwire="${GATEWAY_MCPWIRE:?the cmd/mcpwire binary}"
upstream=""
dir=""
cleanup() {
  [[ -n "$upstream" ]] && kill -TERM "$upstream" 2>/dev/null && wait "$upstream" 2>/dev/null
  [[ -n "$dir" ]] && rm -rf "$dir"
}
trap cleanup EXIT

quote() { # a YAML flow sequence of the arguments, each a JSON string
  local out="" a
  for a in "$@"; do
    a="${a//\\/\\\\}"
    out+="${out:+, }\"${a//\"/\\\"}\""
  done
  printf '[%s]' "$out"
}

# The gateway pages its lists as the clients ask cmd/everything to.
page=1000
prev=""
for a in "$@"; do
  [[ "$prev" == -page-size ]] && page="$a"
  [[ "$a" == -page-size=* ]] && page="${a#-page-size=}"
  prev="$a"
done

if [[ "${1:-}" != -http ]]; then
  # The gateway becomes this process: the client's pipes are its own.
  exec "$mcpwire" gateway --config <(printf 'noNamespace: true\npageSize: %s\nupstreams:\n  - name: everything\n    command: %s\n' \
    "$page" "$(quote "$everything" "$@")")
fi

shift 2 # -http ADDR: the gateway's, on a port of its own
dir="$(mktemp -d)"
"$everything" -http 127.0.0.1:0 "$@" 2>"$dir/upstream.stderr" &
upstream=$!
url=""
for _ in $(seq 200); do
  url="$(sed -n 's/^everything: listening on \(http:[^ ]*\).*/\1/p' "$dir/upstream.stderr" | head -1)"
  [[ -n "$url" ]] && break
  sleep 0.05
done
[[ -n "$url" ]] || { echo "front.sh: cmd/everything did not listen:" >&2; cat "$dir/upstream.stderr" >&2; exit 1; }
printf 'noNamespace: true\npageSize: %s\nupstreams:\n  - name: everything\n    url: %s\n' "$page" "$url" >"$dir/gateway.yaml"
"$mcpwire" gateway --config "$dir/gateway.yaml" --http 127.0.0.1:0 \
  2> >(sed -u 's/.*msg="mcpwire gateway: serving" url=\(http:[^ ]*\).*/everything: listening on \1/' >&2) &
gw=$!
trap 'kill -TERM "$gw" 2>/dev/null' TERM INT
while :; do # a trapped signal ends a wait early: wait again until it exits
  status=0
  wait "$gw" || status=$?
  kill -0 "$gw" 2>/dev/null || break
done
exit "$status"
