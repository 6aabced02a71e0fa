#!/usr/bin/env bash
# Work per push exchange of accord record, counted rather than timed: mallocs, Swift object
# allocations and retains (uprobes) and system calls (tracepoints), over a fixed number of
# exchanges from a fixed client. Counts repeat from run to run where CPU times on a shared VM
# move by ±15%, so they show what a change saves.
#
#   bench/record-counts.sh [ACCORD]        # default: the release build (built if missing)
#   EXCHANGES=500 CONNECTIONS=8 bench/record-counts.sh
#
# Needs perf with uprobe support (run as root). Uses the shared harness's upstream and push body
# (../shared/bench, used in place). Everything listens on 127.0.0.1 and is stopped at the end;
# the uprobes it adds are removed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
bench="$(cd "$root/../shared/bench" && pwd)"
EXCHANGES="${EXCHANGES:-500}"     # per connection
CONNECTIONS="${CONNECTIONS:-8}"
ACCORD="${1:-}"
if [[ -z "$ACCORD" ]]; then
  (cd "$root" && swift build -c release --product accord >&2)
  ACCORD="$(cd "$root" && swift build -c release --show-bin-path)/accord"
fi
command -v perf >/dev/null || { echo "record-counts.sh: perf is not installed" >&2; exit 2; }
libc=$(ldconfig -p | awk '/libc.so.6 .*x86-64/ {print $NF; exit}')
swiftcore=$(ldd "$ACCORD" | awk '/libswiftCore.so/ {print $3; exit}')
[[ -n "$libc" && -n "$swiftcore" ]] || { echo "record-counts.sh: libc or libswiftCore not found" >&2; exit 2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/accord-record-counts.XXXXXX")"
pids=()
probes=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for probe in "${probes[@]}"; do perf probe -q -d "$probe" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
add_probe() { # LIBRARY FUNCTION: adds the uprobe accord:FUNCTION (-f: beside any other probe there)
  local event="accord:$2"
  perf probe -q -d "$event" >/dev/null 2>&1 || true
  perf probe -q -f -x "$1" --add "$event=$2" >/dev/null 2>&1 && [[ -n "$(perf probe -l "$event" 2>/dev/null)" ]] \
    || { echo "record-counts.sh: cannot add a uprobe on $2 (perf probe needs root and uprobe support)" >&2; exit 2; }
  probes+=("$event")
}
add_probe "$libc" malloc
add_probe "$swiftcore" swift_allocObject
add_probe "$swiftcore" swift_retain

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
up_port=$(free_port)
port=$(free_port)
timeout 600 python3 "$bench/upstream.py" --host 127.0.0.1 --port "$up_port" >"$work/upstream.log" 2>&1 &
pids+=($!)
python3 "$bench/tools.py" pushbody --bytes 2048 --out "$work/body.json" >/dev/null
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$up_port/health" >/dev/null && break; sleep 0.1; done

events=accord:malloc,accord:swift_allocObject,accord:swift_retain
for call in poll epoll_ctl epoll_wait sendto sendmsg recvfrom writev futex; do events+=",syscalls:sys_enter_$call"; done
perf stat -x, -e "$events" -o "$work/counts.csv" \
  "$ACCORD" record --upstream "http://127.0.0.1:$up_port" --listen "127.0.0.1:$port" --out "$work/rec.jsonl" --quiet \
  >"$work/record.log" 2>&1 &
perf_pid=$!
pids+=("$perf_pid")
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
python3 - "$port" "$work/body.json" "$EXCHANGES" "$CONNECTIONS" <<'PY'
import http.client, sys, threading
port, body, count, connections = int(sys.argv[1]), open(sys.argv[2], "rb").read(), int(sys.argv[3]), int(sys.argv[4])
def client():
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for _ in range(count):
        conn.request("POST", "/push", body=body, headers={"Content-Type": "application/json"})
        reply = conn.getresponse()
        reply.read()
        assert reply.status == 200, reply.status
threads = [threading.Thread(target=client) for _ in range(connections)]
for thread in threads: thread.start()
for thread in threads: thread.join()
PY
kill -INT "$(pgrep -P "$perf_pid")"
wait "$perf_pid" || true
exchanges=$((EXCHANGES * CONNECTIONS))
recorded=$(($(wc -l <"$work/rec.jsonl") - 1))
echo "$exchanges pushes on $CONNECTIONS connections ($recorded exchanges recorded, /health checks included);"
echo "counts over the proxy's whole life, per push:"
awk -F, -v n="$exchanges" '$1 ~ /^[0-9]+$/ { printf "  %-34s %10d  %8.2f per push\n", $3, $1, $1 / n }' "$work/counts.csv"
