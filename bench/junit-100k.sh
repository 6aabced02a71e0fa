#!/usr/bin/env bash
# JUnit for 100,000 testcases (DESIGN.md: "100,000 test cases written in under a second,
# streaming"), through the real writer: `accord check` on a recording of 100,000 small passing
# pull exchanges (bench/gen-junit-recording.py) writes one testcase per exchange. The writer's
# share is the wall time with --junit minus the wall time without it (without a report, check
# keeps no passing testcase, so the difference is keeping 100,000 results and writing them).
#
#   bench/junit-100k.sh                  # release build, 5 runs each
#   CONFIG=debug RUNS=3 bench/junit-100k.sh
#
# Environment:
#   CONFIG     release (default) or debug: the build measured
#   EXCHANGES  testcases to write (default 100000)
#   RUNS       timed runs per variant (default 5); medians are reported
#   SWIFT      the swift driver (default: swift on PATH)
#   STRICT     1: exit 1 when the writer's share is 1 s or more (default 0: report only)
# Everything is local; the script stops by itself and removes what it generated.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
CONFIG="${CONFIG:-release}"
EXCHANGES="${EXCHANGES:-100000}"
RUNS="${RUNS:-5}"
SWIFT="${SWIFT:-swift}"
STRICT="${STRICT:-0}"

work="$(mktemp -d "${TMPDIR:-/tmp}/accord-junit.XXXXXX")"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
log() { printf '%s\n' "$*" >&2; }

log "building accord ($CONFIG)"
(cd "$root" && "$SWIFT" build -c "$CONFIG" --product accord >&2)
accord="$(cd "$root" && "$SWIFT" build -c "$CONFIG" --show-bin-path)/accord"

log "generating $EXCHANGES exchanges"
python3 "$here/gen-junit-recording.py" --exchanges "$EXCHANGES" --out "$work/r.jsonl"
bytes=$(stat -c %s "$work/r.jsonl")

# Wall seconds of one run of "$@", stdout and stderr discarded.
wall() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    python3 -c "print(f'{$end - $start:.3f}')"
}
median() { python3 -c "import statistics,sys; print(f'{statistics.median(float(x) for x in sys.argv[1:]):.3f}')" "$@"; }

"$accord" check "$work/r.jsonl" --junit "$work/warm.xml" >/dev/null  # warm the page cache
with=() without=()
for ((i = 0; i < RUNS; i++)); do
    without+=("$(wall "$accord" check "$work/r.jsonl")")
    with+=("$(wall "$accord" check "$work/r.jsonl" --junit "$work/out.xml")")
done
cases=$(grep -c '<testcase ' "$work/out.xml")
xml_bytes=$(stat -c %s "$work/out.xml")
m_with=$(median "${with[@]}")
m_without=$(median "${without[@]}")
share=$(python3 -c "print(f'{max(0.0, $m_with - $m_without):.3f}')")

printf 'build            %s (%s)\n' "$CONFIG" "$("$SWIFT" --version 2>/dev/null | head -1)"
printf 'recording        %d exchanges, %d bytes\n' "$EXCHANGES" "$bytes"
printf 'junit            %d testcases, %d bytes\n' "$cases" "$xml_bytes"
printf 'check            %s s median (runs: %s)\n' "$m_without" "${without[*]}"
printf 'check --junit    %s s median (runs: %s)\n' "$m_with" "${with[*]}"
printf "writer's share   %s s (target < 1 s)\n" "$share"
if [[ "$cases" -ne "$EXCHANGES" ]]; then
    log "expected $EXCHANGES testcases, found $cases"
    exit 1
fi
if [[ "$STRICT" == 1 ]] && python3 -c "import sys; sys.exit(0 if $share >= 1.0 else 1)"; then exit 1; fi
