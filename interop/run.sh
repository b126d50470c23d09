#!/usr/bin/env bash
# run.sh proves cmd/everything against real MCP clients: it builds the server
# and the Go clients, installs the Node clients from the lockfile if needed,
# runs every client in every mode, and prints one summary table. It exits 1
# when any check failed.
#
# Usage: interop/run.sh [-strict]
#   -strict              report checks the server cannot run yet (SKIP) as FAIL;
#                        the same as INTEROP_STRICT=1
# Environment:
#   INTEROP_SERVER=PATH  test this server binary instead of building cmd/everything
#   NODE=PATH            the node binary (default: node on PATH)
# Every client mode runs twice, over stdio and over Streamable HTTP. Each
# run's output (.txt), stderr (.stderr) and wire transcript (.wire) are kept
# in interop/bin/results/, named client-transport-mode.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
bin="$here/bin"
results="$bin/results"
node="${NODE:-node}"

for arg in "$@"; do
  case "$arg" in
    -strict|--strict) export INTEROP_STRICT=1 ;;
    *) echo "usage: $0 [-strict]" >&2; exit 2 ;;
  esac
done

mkdir -p "$bin"
rm -rf "$results"
mkdir -p "$results"

if [[ -n "${INTEROP_SERVER:-}" ]]; then
  server="$INTEROP_SERVER"
  echo "== using server $server"
else
  echo "== building cmd/everything"
  (cd "$root/cmd/everything" && go build -o "$bin/everything" .)
  server="$bin/everything"
fi

echo "== building the Go clients"
(cd "$here/go" && go build -o "$bin/gosdk" ./cmd/gosdk && go build -o "$bin/mcpgo" ./cmd/mcpgo && go build -o "$bin/mcpwireclient" ./cmd/mcpwireclient)

if [[ ! -d "$here/node/node_modules" ]]; then
  echo "== installing the Node clients from package-lock.json"
  (cd "$here/node" && npm ci --no-audit --no-fund)
fi

# client, transport, mode, command; an http run starts its own
# "everything -http 127.0.0.1:0" and stops it with SIGTERM.
runs=()
for t in stdio http; do
  runs+=(
    "go-sdk|$t|default|$bin/gosdk -server $server -transport $t -mode default"
    "go-sdk|$t|legacy|$bin/gosdk -server $server -transport $t -mode legacy"
    "mcp-go|$t|default|$bin/mcpgo -server $server -transport $t -mode default"
    "mcp-go|$t|legacy|$bin/mcpgo -server $server -transport $t -mode legacy"
    "ts-sdk-v1|$t|legacy|$node $here/node/sdk1.mjs --server $server --transport $t --mode legacy"
    "ts-client-v2|$t|legacy|$node $here/node/client2.mjs --server $server --transport $t --mode legacy"
    "ts-client-v2|$t|auto|$node $here/node/client2.mjs --server $server --transport $t --mode auto"
    "ts-client-v2|$t|modern|$node $here/node/client2.mjs --server $server --transport $t --mode modern"
  )
done

status=0
# drive NAME-SUFFIX RUN...: each run, its results named client-transport-mode
# and the suffix.
drive() {
  local suffix="$1" r client transport mode cmd name out
  shift
  for r in "$@"; do
    IFS='|' read -r client transport mode cmd <<<"$r"
    name="$client-$transport-$mode$suffix"
    out="$results/$name.txt"
    echo "== $client $transport $mode$suffix"
    # A run that crashes or hangs still gets its row; 120 s is far above a normal run.
    if ! INTEROP_WIRE_FILE="$results/$name.wire" timeout 120 $cmd >"$out" 2>"$results/$name.stderr"; then
      status=1
    fi
    grep -q '^RESULT PASS$' "$out" || status=1
  done
}
drive "" "${runs[@]}"

# The same clients, the same checks, against mcpwire gateway in front of
# cmd/everything (interop/gateway/front.sh: over stdio a stdio upstream,
# over HTTP an HTTP one; names as they are).
echo "== building mcpwire"
(cd "$root" && go build -o "$bin/mcpwire" ./cmd/mcpwire)
# The clients start it as a server binary, and some (the TypeScript SDK's
# stdio transport) pass it only a minimal environment: a script of its own
# names the binaries.
front="$bin/everything-via-gateway"
printf '#!/bin/sh\nGATEWAY_EVERYTHING=%q GATEWAY_MCPWIRE=%q exec %q "$@"\n' "$server" "$bin/mcpwire" "$here/gateway/front.sh" >"$front"
chmod +x "$front"
gateway_runs=()
for r in "${runs[@]}"; do
  gateway_runs+=("${r//$server/$front}")
done
drive "-gateway" "${gateway_runs[@]}"

# mcpwire check reviews servers we did not write, as a client admits them:
# the go-sdk and mcp-go servers of the benchmark module and the npm
# @modelcontextprotocol/server-everything. Each must be admitted (exit 0);
# the reviews are kept in $results/check-*.json.
echo "== building the benchmark module's servers"
(cd "$root/bench/sdkservers" && go build -o "$bin/sdk-gosdk" ./gosdk && go build -o "$bin/sdk-mcpgo" ./mcpgo)
reviews=(
  "go-sdk-server|$bin/sdk-gosdk"
  "mcp-go-server|$bin/sdk-mcpgo"
  "server-everything|$node $here/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio"
)
check_out="$results/mcpwire-check.txt"
: >"$check_out"
for r in "${reviews[@]}"; do
  IFS='|' read -r name cmd <<<"$r"
  echo "== mcpwire check $name"
  rc=0
  timeout 180 "$bin/mcpwire" check --json -- $cmd >"$results/check-$name.json" 2>"$results/check-$name.stderr" || rc=$?
  if [[ $rc -eq 0 ]]; then
    echo "PASS check-$name: admitted" >>"$check_out"
  else
    echo "FAIL check-$name: exit $rc, see check-$name.json" >>"$check_out"
    status=1
  fi
done
cat "$check_out"

# The gateway deployed on loopback in front of go-sdk's echo server and
# server-everything (stdio) and cmd/everything (HTTP), driven by go-sdk's
# client and mcpwire's, one upstream killed mid-call
# (interop/go/gatewaydeploy).
echo "== gateway deployment"
deploy_out="$results/gateway-deploy.txt"
if (cd "$here/go" && GATEWAY_DEPLOY_BIN="$bin" GATEWAY_DEPLOY_SERVER="$server" NODE="$node" \
  GATEWAY_DEPLOY_EVERYTHING_JS="$here/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js" \
  go test -count=1 -v -run TestGatewayDeployment ./gatewaydeploy) >"$deploy_out" 2>&1 \
  && grep -q -- '--- PASS: TestGatewayDeployment' "$deploy_out"; then
  echo "PASS gateway-deploy: three upstreams behind one endpoint, one killed mid-call" | tee -a "$check_out"
else
  echo "FAIL gateway-deploy: see gateway-deploy.txt" | tee -a "$check_out"
  status=1
fi

# mcpwire's own client package drives servers we did not write (and
# cmd/everything) in each era they have, over stdio and Streamable HTTP: its
# default Admit and Consume gates must refuse nothing the specification
# allows. An http row runs the command with {port} (and $PORT) set to a
# free loopback port. server, transport, era, the era auto must settle, command.
everything_js="$here/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
# Two of its tools are made quick and local: the long operation lasts 0.2 s,
# and the gzip tool compresses a data: URI instead of fetching a default URL
# (GZIP_ALLOWED_DOMAINS keeps any other fetch on this machine).
everything_args=(-args 'trigger-long-running-operation={"duration":0.2,"steps":2}'
  -args 'gzip-file-as-resource={"data":"data:text/plain;base64,aW50ZXJvcAo=","outputType":"resource"}')
mcrows=()
for t in stdio http; do
  if [[ $t == http ]]; then h="-http 127.0.0.1:{port}"; se="streamableHttp"; ts="--transport http"; else h=""; se="stdio"; ts=""; fi
  for era in legacy modern auto; do
    mcrows+=(
      "everything|$t|$era|modern|$server $h -page-size 2 -watch-interval 0 -caller="
      "go-sdk-server|$t|$era|modern|$bin/sdk-gosdk $h"
      "mcp-go-server|$t|$era|modern|$bin/sdk-mcpgo $h"
    )
  done
  # @modelcontextprotocol/sdk 1.x servers speak only the legacy era.
  for era in legacy auto; do
    mcrows+=(
      "server-everything|$t|$era|legacy|$node $everything_js $se"
      "ts-sdk-server|$t|$era|legacy|$node $here/node/tsserver.mjs $ts"
    )
  done
done
for r in "${mcrows[@]}"; do
  IFS='|' read -r name transport era expect cmd <<<"$r"
  out="$results/mcpwire-client-$name-$transport-$era.txt"
  echo "== mcpwire client $name $transport $era"
  extra=()
  [[ $name == server-everything ]] && extra=("${everything_args[@]}")
  if ! GZIP_ALLOWED_DOMAINS=localhost timeout 120 "$bin/mcpwireclient" -name "$name" -transport "$transport" -era "$era" -expect "$expect" \
    "${extra[@]}" -- $cmd >"$out" 2>"$results/mcpwire-client-$name-$transport-$era.stderr"; then
    status=1
  fi
  grep -q '^RESULT PASS$' "$out" || status=1
done

# table prints one row per run from "first|via|third|result file" lines on
# stdin: a column per check (P pass, F fail, S skip, - not reported) read
# from the file's "PASS|FAIL|SKIP check:" lines, and the RESULT line.
table() { # checks first-header first-width third-header third-width
  awk -v checks="$1" -v h1="$2" -v w1="$3" -v h3="$4" -v w3="$5" -F'|' '
  BEGIN {
    n = split(checks, c, " ")
    printf "%-*s %-5s %-*s", w1, h1, "via", w3, h3
    for (i = 1; i <= n; i++) printf " %s", c[i]
    printf "  result\n"
  }
  {
    delete st
    result = "FAIL"
    while ((getline line < $4) > 0) {
      if (match(line, /^(PASS|FAIL|SKIP) [a-z0-9-]+:/)) {
        split(substr(line, 1, RLENGTH - 1), f, " ")
        st[f[2]] = substr(f[1], 1, 1)
      }
      if (line == "RESULT PASS") result = "PASS"
    }
    close($4)
    printf "%-*s %-5s %-*s", w1, $1, $2, w3, $3
    for (i = 1; i <= n; i++) {
      s = (c[i] in st) ? st[c[i]] : "-"
      w = length(c[i])
      printf " %*s%s%*s", int((w - 1) / 2), "", s, w - 1 - int((w - 1) / 2), ""
    }
    printf "  %s\n", result
  }'
}

checks="connect era list echo echo-1mib add tags fail bundle unknown progress cancel resources templates read-text read-binary read-template read-missing prompts prompt-simple prompt-args prompt-missing complete subscribe sampling elicitation elicitation-decline roots multi-round wire exit"
echo
echo "== summary (P pass, F fail, S skip, - not reported; details in $results)"
for r in "${runs[@]}"; do
  IFS='|' read -r client transport mode _ <<<"$r"
  echo "$client|$transport|$mode|$results/$client-$transport-$mode.txt"
done | table "$checks" client 13 mode 8
echo
echo "== the same through mcpwire gateway in front of cmd/everything"
for r in "${runs[@]}"; do
  IFS='|' read -r client transport mode _ <<<"$r"
  echo "$client|$transport|$mode|$results/$client-$transport-$mode-gateway.txt"
done | table "$checks" client 13 mode 8

client_checks="connect era tools resources templates prompts calls reads gets refusals close"
echo
echo "== mcpwire client against other servers (P pass, F fail, S skip, - not reported)"
for r in "${mcrows[@]}"; do
  IFS='|' read -r name transport era _ <<<"$r"
  echo "$name|$transport|$era|$results/mcpwire-client-$name-$transport-$era.txt"
done | table "$client_checks" server 17 era 6
grep -h '^INFO \(REFUSED\|warning\|expected refusal\)' "$results"/mcpwire-client-*.txt | sort | uniq -c | cut -c1-400 || true

echo
echo "== failures"
grep -H '^FAIL' "$results"/*.txt | grep -v ': not connected$' | sed "s|^$results/||; s|\.txt:| |" | cut -c1-400 || echo "(none)"

# One closing count line, in the plain form CI logs are read by.
passed=$(cat "$results"/*.txt | grep -c '^PASS ' || true)
failed=$(cat "$results"/*.txt | grep -c '^FAIL ' || true)
skipped=$(cat "$results"/*.txt | grep -c '^SKIP ' || true)
echo
echo "interop: $passed passed, $failed failed, $skipped skipped"
exit "$status"
