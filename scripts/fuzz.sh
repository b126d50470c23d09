#!/usr/bin/env bash
# Runs every Go fuzz target of the repository (every func Fuzz* in a
# _test.go file, in the main module and in the modules beside it), one
# after the other, each for FUZZTIME (default 20s) with inputs minimised in
# one run (-fuzzminimizetime 1x: the default of 60 s per input stalls short
# runs). A target that fails, or that does not end within FUZZTIME and two
# minutes more (a stalled fuzzer), fails the run; the run goes on with the
# other targets and exits non-zero at the end, listing the failures.
#
# Usage, from anywhere in the repository:
#
#	bash scripts/fuzz.sh              # every target, 20 s each
#	FUZZTIME=2m bash scripts/fuzz.sh  # longer
#	bash scripts/fuzz.sh FuzzPost     # only targets whose name matches
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fuzztime="${FUZZTIME:-20s}"
only="${1:-}"
# The modules with fuzz targets of their own (each has its go.mod).
modules=(. jwtauth otelmcp redisbroker cmd/everything)

secs() { # seconds of a Go duration such as 20s, 2m, 1m30s
	local d="$1" total=0 n
	while [[ -n "$d" ]]; do
		n="${d%%[hms]*}"; d="${d#"$n"}"
		case "${d:0:1}" in h) total=$((total + n * 3600)) ;; m) total=$((total + n * 60)) ;; s) total=$((total + n)) ;; *) echo "bad FUZZTIME $fuzztime" >&2; exit 2 ;; esac
		d="${d:1}"
	done
	echo "$total"
}
limit=$(($(secs "$fuzztime") + 120))

failed=()
ran=0
for m in "${modules[@]}"; do
	cd "$root/$m" || exit 2
	# go test -list prints a package's matching tests, then "ok <package>".
	listing="$(go test -list '^Fuzz' ./... 2>&1)" || { echo "$listing" >&2; failed+=("$m: go test -list"); continue; }
	targets=()
	while read -r first second _; do
		case "$first" in
		Fuzz*) targets+=("$first") ;;
		ok)
			for t in "${targets[@]}"; do
				[[ -n "$only" && "$t" != *"$only"* ]] && continue
				echo "== $second $t ($fuzztime)"
				ran=$((ran + 1))
				if ! timeout --kill-after=10 "$limit" go test -run '^$' -fuzz "^$t\$" -fuzztime "$fuzztime" -fuzzminimizetime 1x "$second"; then
					failed+=("$second $t")
				fi
			done
			targets=()
			;;
		esac
	done <<<"$listing"
done
echo
echo "fuzz: $ran targets run, ${#failed[@]} failed"
if [[ ${#failed[@]} -gt 0 ]]; then
	printf '  failed: %s\n' "${failed[@]}" >&2
	exit 1
fi
