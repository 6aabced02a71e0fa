#!/usr/bin/env bash
# The storage-fault matrix's cost: accord run --client "accord driver" --storage-faults over the
# shared corpus (docs/storage-faults.md), every case once per point and variant, the driver under
# libfiu. No target; recorded in docs/benchmarks.md with the load at the time.
#
#   bench/storage-faults.sh          # RUNS=3 runs; JOBS defaults to the core count; BUILD=release
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
RUNS="${RUNS:-3}"
JOBS="${JOBS:-$(nproc)}"
BUILD="${BUILD:-release}"
corpus="$root/../shared/kizunasync-protocol"
work="$(mktemp -d "${TMPDIR:-/tmp}/accord-storage-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT

(cd "$root" && swift build -c "$BUILD" >&2)
accord="$(cd "$root" && swift build -c "$BUILD" --show-bin-path)/accord"

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
seconds() { local start end; start=$(date +%s.%N); "$@" >"$work/out" 2>&1 || { cat "$work/out" >&2; exit 1; }; end=$(date +%s.%N); echo "$end - $start" | bc -l; }

loads=()
runs=()
for ((i = 0; i < RUNS; i++)); do
  loads+=("$(cut -d' ' -f1 /proc/loadavg)")
  runs+=("$(seconds "$accord" run --client "$accord driver" --storage-faults "$corpus" --jobs "$JOBS")")
done
summary=$(tail -n 1 "$work/out")
plain=$(seconds "$accord" run --client "$accord driver" "$corpus" --jobs "$JOBS")

echo "| measurement ($BUILD build) | median | runs (s) | 1-min load before each run |"
echo "|---|---:|---|---|"
printf '| corpus, storage-fault matrix, reference client, --jobs %s | %.1f s | %s | %s |\n' "$JOBS" "$(median "${runs[@]}")" "$(printf '%.1f ' "${runs[@]}")" "${loads[*]}"
printf '| corpus, plain client lane, same build, --jobs %s | %.1f s | %.1f | %s |\n' "$JOBS" "$plain" "$plain" "$(cut -d' ' -f1 /proc/loadavg)"
echo
echo "last storage-fault run: $summary"
