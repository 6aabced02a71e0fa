#!/usr/bin/env bash
# The client lane's speed: accord run --client "accord driver" over the shared corpus
# (target: under 3 s), each case a fresh driver process against a fresh loopback mock.
#
#   bench/client-lane.sh            # RUNS=10 runs; JOBS defaults to the core count
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
RUNS="${RUNS:-10}"
JOBS="${JOBS:-$(nproc)}"
corpus="$root/../shared/kizunasync-protocol"
work="$(mktemp -d "${TMPDIR:-/tmp}/accord-client-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT

(cd "$root" && swift build -c release >&2)
accord="$(cd "$root" && swift build -c release --show-bin-path)/accord"

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
seconds() { local start end; start=$(date +%s.%N); "$@" >"$work/out" 2>&1 || { cat "$work/out" >&2; exit 1; }; end=$(date +%s.%N); echo "$end - $start" | bc -l; }

runs=()
for ((i = 0; i < RUNS; i++)); do runs+=("$(seconds "$accord" run --client "$accord driver" "$corpus" --jobs "$JOBS")"); done
serial=()
for ((i = 0; i < 3; i++)); do serial+=("$(seconds "$accord" run --client "$accord driver" "$corpus" --jobs 1)"); done
summary=$(tail -n 1 "$work/out")

echo "| measurement | median | runs (s) |"
echo "|---|---:|---|"
echo "| corpus, client lane, reference client, --jobs $JOBS | $(median "${runs[@]}") s | ${runs[*]} |"
echo "| corpus, client lane, reference client, --jobs 1 | $(median "${serial[@]}") s | ${serial[*]} |"
echo
echo "last run: $summary"
