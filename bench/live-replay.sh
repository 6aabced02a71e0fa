#!/usr/bin/env bash
# Replaying a recording of a live service at scale: a recording of EXCHANGES exchanges from DEVICES
# devices, made through `accord record` in front of `accord serve --fixtures` under a load script
# with out-of-band writes (bench/live-load.py), then replayed against the embedded server with no
# flag, next to `accord check` on the same file. All on loopback; every process is stopped by pid.
#
#   bench/live-replay.sh                 # EXCHANGES=50000 DEVICES=50 RUNS=3
#   RECORDING=/path/live.jsonl bench/live-replay.sh   # measure an existing recording (kept)
#   KEEP=/path/live.jsonl bench/live-replay.sh        # keep the recording made
#
# Reports wall time, exchanges per second and peak RSS (GNU time) of each command, the median of
# RUNS runs. Targets (issue 34): the replay at least 2,000 exchanges/s, its RSS under 256 MiB.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
EXCHANGES="${EXCHANGES:-50000}"
DEVICES="${DEVICES:-50}"
RUNS="${RUNS:-3}"
secret="live-replay-bench"
work="$(mktemp -d "${TMPDIR:-/tmp}/accord-live-replay.XXXXXX")"
serve_pid=""
record_pid=""
stop() { [[ -n "$1" ]] && kill -INT "$1" 2>/dev/null && wait "$1" 2>/dev/null || true; }
cleanup() {
  stop "$record_pid"
  stop "$serve_pid"
  rm -rf "$work"
}
trap cleanup EXIT
log() { printf '%s\n' "$*" >&2; }

[[ -x /usr/bin/time ]] || { log "GNU time is needed (apt-get install time)"; exit 2; }
(cd "$root" && swift build -c release >&2)
accord="$(cd "$root" && swift build -c release --show-bin-path)/accord"

listening_port() {
  for _ in $(seq 100); do grep -q '127\.0\.0\.1:[0-9]' "$1" && break; sleep 0.1; done
  sed -nE 's/.*127\.0\.0\.1:([0-9]+).*/\1/p' "$1" | head -n1
}

if [[ -n "${RECORDING:-}" ]]; then
  file="$RECORDING"
else
  file="$work/live.jsonl"
  "$accord" serve --listen 127.0.0.1:0 --jwt-secret "$secret" --fixtures >"$work/serve.log" 2>&1 &
  serve_pid=$!
  serve_port=$(listening_port "$work/serve.log")
  curl -sf -X POST "http://127.0.0.1:$serve_port/accord/fixtures/seed" -H 'Content-Type: application/json' \
    -d '{"server":{"min_schema_version":1,"tables":{"todos":{"bucket_column":"owner_id"}},"tombstone_ttl_days":30}}' >/dev/null
  "$accord" record --upstream "http://127.0.0.1:$serve_port" --listen 127.0.0.1:0 --out "$file" --quiet >"$work/record.log" 2>&1 &
  record_pid=$!
  record_port=$(listening_port "$work/record.log")
  log "recording $EXCHANGES exchanges from $DEVICES devices"
  started=$(date +%s.%N)
  python3 "$here/live-load.py" --proxy "http://127.0.0.1:$record_port" --service "http://127.0.0.1:$serve_port" \
    --secret "$secret" --devices "$DEVICES" --exchanges "$EXCHANGES" >"$work/load.json"
  ended=$(date +%s.%N)
  stop "$record_pid"
  record_pid=""
  stop "$serve_pid"
  serve_pid=""
  log "recorded in $(echo "$ended - $started" | bc -l | cut -c1-6) s: $(cat "$work/load.json")"
  [[ -n "${KEEP:-}" ]] && cp "$file" "$KEEP"
fi
count=$(($(wc -l <"$file") - 1))
bytes=$(stat -c %s "$file")

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
measure() {
  local name="$1"
  shift
  local walls=() rss=()
  for ((i = 0; i < RUNS; i++)); do
    /usr/bin/time -f '%e %M' -o "$work/time" "$@" >"$work/out" 2>&1 || { tail -5 "$work/out" >&2; exit 1; }
    read -r wall kib <"$work/time"
    walls+=("$wall")
    rss+=("$kib")
  done
  local w r
  w=$(median "${walls[@]}")
  r=$(median "${rss[@]}")
  printf '| %s | %s | %.0f | %.1f | %s |\n' "$name" "$w" "$(echo "$count / $w" | bc -l)" "$(echo "$r / 1024" | bc -l)" \
    "$(tail -n1 "$work/out" | cut -c1-140)"
}

echo "recording: $count exchanges, $((bytes / 1048576)) MiB; $(nproc) cores; RUNS=$RUNS (medians)"
echo
echo "| command | wall s | exchanges/s | peak RSS MiB | summary |"
echo "|---|---|---|---|---|"
measure "accord run --server embedded" "$accord" run --server embedded "$file" --quiet
measure "accord check" "$accord" check "$file"
