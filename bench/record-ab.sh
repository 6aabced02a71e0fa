#!/usr/bin/env bash
# Two builds of accord record, alternated under the same load: the shared harness's upstream,
# its push body and its wrk scripts (../shared/bench, used in place), one phase at a time.
# Run-to-run noise on a shared 2-core VM is ±15%, larger than most single changes; alternating
# A and B several times and comparing medians is what tells them apart.
#
#   bench/record-ab.sh OLD_ACCORD NEW_ACCORD            # push, 3 pairs of 10 s runs
#   PHASE=stream PAIRS=5 bench/record-ab.sh OLD NEW     # the 2 MB NDJSON stream instead
#
# Prints, per run, requests/s (or MB/s) and the proxy's CPU per request (user+sys from /proc),
# then the medians. Everything listens on 127.0.0.1 and is stopped at the end.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/../../shared/bench" && pwd)"
[[ $# -eq 2 && -x "$1" && -x "$2" ]] || { echo "usage: bench/record-ab.sh OLD_ACCORD NEW_ACCORD" >&2; exit 64; }
command -v wrk >/dev/null || { echo "record-ab.sh: wrk is not installed (../shared/bench/setup.sh)" >&2; exit 2; }
PHASE="${PHASE:-push}"
PAIRS="${PAIRS:-3}"
SECONDS_PER_RUN="${SECONDS_PER_RUN:-10}"
work="$(mktemp -d "${TMPDIR:-/tmp}/accord-record-ab.XXXXXX")"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
up_port=$(free_port)
timeout 3600 python3 "$bench/upstream.py" --host 127.0.0.1 --port "$up_port" >"$work/upstream.log" 2>&1 &
pids+=($!)
python3 "$bench/tools.py" pushbody --bytes 2048 --out "$work/body.json" >/dev/null
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$up_port/health" >/dev/null && break; sleep 0.1; done

# run BINARY: one measured run; prints "rate cpu_us_per_request"
run() {
  local port proxy before after
  port=$(free_port)
  rm -f "$work/rec.jsonl"
  "$1" record --upstream "http://127.0.0.1:$up_port" --listen "127.0.0.1:$port" --out "$work/rec.jsonl" --quiet \
    >"$work/record.log" 2>&1 &
  proxy=$!
  pids+=("$proxy")
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
  local url="http://127.0.0.1:$port/push" script=push.lua threads=2 conns=8
  if [[ "$PHASE" == stream ]]; then
    url="http://127.0.0.1:$port/stream?lines=10000&per_chunk=1" script=stream.lua threads=1 conns=1
  fi
  before=$(awk '{print $14+$15}' "/proc/$proxy/stat")
  WRK_LUA_DIR="$bench/wrk" PUSH_BODY_FILE="$work/body.json" WRK_JSON_OUT="$work/wrk.json" \
    timeout 120 wrk -t"$threads" -c"$conns" -d"${SECONDS_PER_RUN}s" -s "$bench/wrk/$script" "$url" >"$work/wrk.txt" 2>&1
  after=$(awk '{print $14+$15}' "/proc/$proxy/stat")
  kill -INT "$proxy"
  wait "$proxy" 2>/dev/null || true
  python3 - "$work/wrk.json" "$((after - before))" "$PHASE" <<'PY'
import json, os, sys
report = json.load(open(sys.argv[1]))
requests = report.get("requests") or 1
ticks = int(sys.argv[2]) * 1_000_000 // os.sysconf("SC_CLK_TCK")
seconds = max(report.get("duration_us", 1), 1) / 1e6
rate = report.get("bytes", 0) / seconds / 1e6 if sys.argv[3] == "stream" else requests / seconds
print(f"{rate:.1f} {ticks / requests:.1f}")
PY
}

declare -a old_rate old_cpu new_rate new_cpu
unit=$([[ "$PHASE" == stream ]] && echo "MB/s (wire)" || echo "req/s")
for pair in $(seq "$PAIRS"); do
  read -r rate cpu < <(run "$1"); old_rate+=("$rate"); old_cpu+=("$cpu")
  echo "pair $pair  A: $rate $unit, $cpu us CPU per request"
  read -r rate cpu < <(run "$2"); new_rate+=("$rate"); new_cpu+=("$cpu")
  echo "pair $pair  B: $rate $unit, $cpu us CPU per request"
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
echo "median A: $(median "${old_rate[@]}") $unit, $(median "${old_cpu[@]}") us CPU per request ($1)"
echo "median B: $(median "${new_rate[@]}") $unit, $(median "${new_cpu[@]}") us CPU per request ($2)"
