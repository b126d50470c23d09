#!/usr/bin/env bash
# run-client.sh runs the official MCP conformance suites' client scenarios
# against cmd/everything-client (the suite starts it once per scenario as
# `everything-client URL`, the scenario in MCP_CONFORMANCE_SCENARIO, its
# context in MCP_CONFORMANCE_CONTEXT, against a server of the suite's own),
# writes the client part of conformance/RESULTS.md and compares the results
# with conformance/baseline-client.txt: it exits 1 when a baseline scenario
# does not pass, and names each scenario that passes without being in it.
#
# Usage: conformance/run-client.sh [-update-baseline]
#   -update-baseline     rewrite baseline-client.txt with what passes now
# Environment:
#   CONFORMANCE_CLIENT=PATH  test this client binary instead of building cmd/everything-client
#   NODE=PATH                a Node 22+ binary (as for run.sh)
# Each suite's console log and its checks.json files (with the client's
# stdout and stderr) are kept in conformance/bin/client-results/.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
results="$here/bin/client-results"
# shellcheck source=run-common.sh
source "$here/run-common.sh"

binary "${CONFORMANCE_CLIENT:-}" everything-client
client="$program"

# suite name | package directory. Both run every client scenario
# (--suite all): auth/* and the sep-2640-* skills scenarios, all in the
# baseline.
suites=(
  "0.1.16|conformance-legacy"
  "0.2.0-alpha.12|conformance-modern"
)
for s in "${suites[@]}"; do
  IFS='|' read -r name pkg <<<"$s"
  cli="$here/node_modules/$pkg/dist/index.js"
  version="$("$node" -p "require('$here/node_modules/$pkg/package.json').version")"
  echo "== $name: @modelcontextprotocol/conformance@$version client --command everything-client --suite all"
  "$node" "$cli" list --client >"$results/$name.list"
  echo "$version" >"$results/$name.version"
  echo "client --command <everything-client> --suite all" >"$results/$name.command"
  # The suite exits 1 when any check failed; the summary decides.
  timeout 1200 "$node" "$cli" client --command "$client" --suite all -o "$results/$name" \
    >"$results/$name.log" 2>&1 || echo "$?" >"$results/$name.status"
  grep -E '^Total:' "$results/$name.log" | sed "s/^/   $name: /" || true
done

# The scenarios that test a refusal pass when the client signs in no
# further; each must have stopped for the rule the scenario breaks, named
# on the client's stderr, and not for any other reason.
refusals=(
  "0.2.0-alpha.12|auth/resource-mismatch|resource mismatch"
  "0.1.16|auth/resource-mismatch|resource mismatch"
  "0.2.0-alpha.12|auth/iss-supported-missing|issuer mismatch: .* its response has no iss"
  "0.2.0-alpha.12|auth/iss-wrong-issuer|issuer mismatch: the authorization response names issuer"
  "0.2.0-alpha.12|auth/iss-unexpected|issuer mismatch: the authorization response names issuer"
  "0.2.0-alpha.12|auth/iss-normalized|issuer mismatch: the authorization response names issuer"
  "0.2.0-alpha.12|auth/metadata-issuer-mismatch|issuer mismatch: the metadata at"
  "0.2.0-alpha.12|auth/scope-retry-limit|HTTP 403 insufficient_scope"
  "0.1.16|auth/scope-retry-limit|HTTP 403 insufficient_scope"
  "0.2.0-alpha.12|sep-2640-client-verify-digest|skill: digest mismatch: skill://pdf-processing/SKILL.md"
  "0.2.0-alpha.12|sep-2640-client-verify-size|skill: size mismatch: skill://pdf-processing/SKILL.md"
  "0.2.0-alpha.12|sep-2640-client-verify-frontmatter|skill: frontmatter mismatch: skill://pdf-processing/SKILL.md"
)
refused=0
for r in "${refusals[@]}"; do
  IFS='|' read -r suite name rule <<<"$r"
  err="$(ls -d "$results/$suite/$name"-* 2>/dev/null | head -1)/stderr.txt"
  if ! grep -Eq "$rule" "$err" 2>/dev/null; then
    echo "FAIL: $suite $name did not stop for its rule (/$rule/ is not on its stderr)" >&2
    refused=1
  fi
done

# A scenario whose checks were skipped still passes the suite: each
# sep-2640-client-* scenario must have run checks, every one a SUCCESS.
for dir in "$results"/0.2.0-alpha.12/sep-2640-client-*; do
  if ! "$node" -e '
    const c = JSON.parse(require("fs").readFileSync(process.argv[1] + "/checks.json", "utf8"));
    process.exit(c.length > 0 && c.every(x => x.status === "SUCCESS") ? 0 : 1);' "$dir"; then
    echo "FAIL: $(basename "$dir"): not every check ran and succeeded" >&2
    refused=1
  fi
done
ls -d "$results"/0.2.0-alpha.12/sep-2640-client-* >/dev/null 2>&1 || { echo "FAIL: no sep-2640-client-* scenario ran" >&2; refused=1; }

summary_args=(--mode client --results "$results" --baseline "$here/baseline-client.txt" --out "$here/RESULTS.md" --node "$("$node" --version)")
(( update )) && summary_args+=(--update-baseline)
"$node" "$here/summarize.mjs" "${summary_args[@]}" 0.1.16 0.2.0-alpha.12
exit "$refused"
