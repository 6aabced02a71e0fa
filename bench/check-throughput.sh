#!/usr/bin/env bash
# Throughput and peak RSS of `accord check` on a large recording, against `jq -c .` on the
# same bytes.
#
#   bench/check-throughput.sh                      # generate a 1100 MiB recording in a temp dir
#   RECORDING=/path/to/file.jsonl bench/check-throughput.sh
#
# Environment:
#   RECORDING  an existing recording to use (kept); otherwise one is generated and deleted
#   SIZE_MIB   size of the generated recording in MiB (default 1100, i.e. over 1 GiB)
#   RUNS       timed runs per tool (default 3); the median wall time is reported
#   SWIFT      the swift driver (default: swift on PATH)
#   STRICT     1: exit 1 when a target is missed (default 0: report only)
#
# Targets: accord at least half of jq's throughput; accord peak RSS at most 64 MiB.
# Everything is local: no network, and the script stops by itself.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
SIZE_MIB="${SIZE_MIB:-1100}"
RUNS="${RUNS:-3}"
SWIFT="${SWIFT:-swift}"
STRICT="${STRICT:-0}"
TARGET_RATIO="0.5"
TARGET_RSS_MIB="64"

work="$(mktemp -d "${TMPDIR:-/tmp}/accord-bench.XXXXXX")"
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { printf '%s\n' "$*" >&2; }

# --- tools --------------------------------------------------------------------------------
need_apt=()
[[ -x /usr/bin/time ]] || need_apt+=(time)
command -v jq >/dev/null 2>&1 || need_apt+=(jq)
if ((${#need_apt[@]})); then
    log "installing ${need_apt[*]} with apt-get"
    sudo=""
    [[ "$(id -u)" -eq 0 ]] || sudo="sudo"
    $sudo apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
command -v python3 >/dev/null 2>&1 || { log "python3 is needed to generate the recording"; exit 2; }

# --- build --------------------------------------------------------------------------------
log "building accord (release)"
(cd "$root" && "$SWIFT" build -c release >&2)
accord="$(cd "$root" && "$SWIFT" build -c release --show-bin-path)/accord"
[[ -x "$accord" ]] || { log "no accord binary at $accord"; exit 2; }

# --- recording ----------------------------------------------------------------------------
if [[ -n "${RECORDING:-}" ]]; then
    file="$RECORDING"
    [[ -f "$file" ]] || { log "RECORDING=$file is not a file"; exit 2; }
else
    file="$work/bench-recording.jsonl"
    log "generating a ${SIZE_MIB} MiB recording"
    python3 "$here/gen-recording.py" --size-mib "$SIZE_MIB" --out "$file"
fi
bytes="$(stat -c %s "$file")"
exchanges=$(($(wc -l <"$file") - 1))

# --- correctness: the recording passes every rule, and every exchange was checked --------
# (also warms the page cache, so the timed runs below all read from memory)
log "verifying: accord check $file"
if ! "$accord" check "$file" >"$work/check.out" 2>&1; then
    cat "$work/check.out" >&2
    log "accord check failed on the benchmark recording: fix the generator (or report accord)"
    exit 1
fi
"$accord" check "$file" --json "$work/report.json" >/dev/null
read -r tests passed failures errors < <(jq -r '.tally | "\(.tests) \(.passed) \(.failures) \(.errors)"' "$work/report.json")
rm -f "$work/report.json"
if [[ "$tests" != "$exchanges" || "$passed" != "$exchanges" || "$failures" != 0 || "$errors" != 0 ]]; then
    log "expected $exchanges passing exchanges, the JSON report says tests=$tests passed=$passed failures=$failures errors=$errors"
    exit 1
fi
log "ok: $exchanges exchanges, all passed ($(tr -d '\n' <"$work/check.out"))"

# --- timing -------------------------------------------------------------------------------
# Prints "<wall seconds> <max RSS KiB>" for one run of the command given.
measure() {
    local out="$work/time.out"
    /usr/bin/time -v -o "$out" "$@" >/dev/null
    awk -F': ' '
        /Elapsed \(wall clock\) time/ {
            n = split($2, p, ":"); s = 0
            for (i = 1; i <= n; i++) s = s * 60 + p[i]
            wall = s
        }
        /Maximum resident set size/ { rss = $2 }
        END { printf "%.3f %d\n", wall, rss }' "$out"
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
maximum() { printf '%s\n' "$@" | sort -g | tail -n 1; }

jq_times=() jq_rss=() accord_times=() accord_rss=()
for ((run = 1; run <= RUNS; run++)); do
    # alternate the tools so that background load drifts hit both alike
    read -r t r < <(measure jq -c . "$file")
    jq_times+=("$t") jq_rss+=("$r")
    log "run $run/$RUNS  jq -c .       ${t}s  $((r / 1024)) MiB  (load $(cut -d' ' -f1-3 /proc/loadavg))"
    read -r t r < <(measure "$accord" check "$file")
    accord_times+=("$t") accord_rss+=("$r")
    log "run $run/$RUNS  accord check  ${t}s  $((r / 1024)) MiB  (load $(cut -d' ' -f1-3 /proc/loadavg))"
done

jq_t="$(median "${jq_times[@]}")"
accord_t="$(median "${accord_times[@]}")"
jq_r="$(maximum "${jq_rss[@]}")"
accord_r="$(maximum "${accord_rss[@]}")"

# --- report -------------------------------------------------------------------------------
awk -v bytes="$bytes" -v ex="$exchanges" -v runs="$RUNS" -v file="$file" \
    -v jt="$jq_t" -v at="$accord_t" -v jr="$jq_r" -v ar="$accord_r" \
    -v jall="${jq_times[*]}" -v aall="${accord_times[*]}" \
    -v tratio="$TARGET_RATIO" -v trss="$TARGET_RSS_MIB" '
BEGIN {
    mib = bytes / 1048576
    printf "Recording: %s (%d bytes = %.1f MiB, %d exchanges); %d runs per tool, median wall time, max peak RSS.\n\n", file, bytes, mib, ex, runs
    printf "| tool | MiB/s | seconds (median) | peak RSS MiB | all runs (s) |\n"
    printf "|---|---:|---:|---:|---|\n"
    printf "| `jq -c . FILE >/dev/null` | %.1f | %.2f | %.1f | %s |\n", mib / jt, jt, jr / 1024, jall
    printf "| `accord check FILE` | %.1f | %.2f | %.1f | %s |\n", mib / at, at, ar / 1024, aall
    ratio = jt / at
    printf "\nThroughput ratio accord/jq: %.2f (target >= %s): %s\n", ratio, tratio, (ratio >= tratio) ? "met" : "NOT met"
    printf "accord peak RSS: %.1f MiB (target <= %s MiB): %s\n", ar / 1024, trss, (ar / 1024 <= trss) ? "met" : "NOT met"
    exit !((ratio >= tratio) && (ar / 1024 <= trss))
}' && met=1 || met=0

if [[ "$STRICT" == 1 && "$met" == 0 ]]; then exit 1; fi
exit 0
