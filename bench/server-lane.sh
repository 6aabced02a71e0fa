#!/usr/bin/env bash
# The server lane's speed and accord serve's throughput, all on loopback, stopping by itself.
#
#   bench/server-lane.sh            # RUNS=10 lane runs, DURATION=10s of wrk load per RPC
#
# 1. accord run --server embedded over the shared corpus (target: under 1 s);
# 2. the same over HTTP against accord serve --fixtures;
# 3. requests/s of accord serve for pull and for push under wrk from a second process.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
RUNS="${RUNS:-10}"
DURATION="${DURATION:-10s}"
CONNECTIONS="${CONNECTIONS:-16}"
corpus="$root/../shared/kizunasync-protocol"
scenarios="$root/../shared/corpus-scenarios.json"
secret="bench-secret"
user="00000000-0000-4000-8000-a10000000001"
client="00000000-0000-4000-8000-c10000000001"
work="$(mktemp -d "${TMPDIR:-/tmp}/accord-server-bench.XXXXXX")"
serve_pid=""
cleanup() {
  [[ -n "$serve_pid" ]] && kill -INT "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

(cd "$root" && swift build -c release >&2)
accord="$(cd "$root" && swift build -c release --show-bin-path)/accord"

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
seconds() { local start end; start=$(date +%s.%N); "$@" >"$work/out" 2>&1 || { cat "$work/out" >&2; exit 1; }; end=$(date +%s.%N); echo "$end - $start" | bc -l; }

start_serve() {
  "$accord" serve --listen 127.0.0.1:0 --jwt-secret "$secret" --fixtures >"$work/serve.log" 2>&1 &
  serve_pid=$!
  for _ in $(seq 50); do grep -q listening "$work/serve.log" && break; sleep 0.1; done
  port=$(sed -nE 's/.*127\.0\.0\.1:([0-9]+).*/\1/p' "$work/serve.log" | head -n1)
}

embedded=()
for ((i = 0; i < RUNS; i++)); do embedded+=("$(seconds "$accord" run --server embedded "$corpus" --scenarios "$scenarios")"); done
start_serve
http=()
for ((i = 0; i < RUNS; i++)); do
  http+=("$(seconds "$accord" run --server "http://127.0.0.1:$port" --jwt-secret "$secret" "$corpus" --scenarios "$scenarios")")
done

# Load: seed an empty todos table, mint a JWT with Python's hmac, then wrk each RPC.
curl -sf -X POST "http://127.0.0.1:$port/accord/fixtures/seed" -H 'Content-Type: application/json' \
  -d '{"server":{"min_schema_version":1,"tables":{"todos":{"bucket_column":"owner_id"}},"tombstone_ttl_days":30}}' >/dev/null
jwt=$(python3 - "$secret" "$user" "$client" <<'PY'
import base64, hashlib, hmac, json, sys
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
body = b64(json.dumps({"sub": sys.argv[2], "session_id": sys.argv[3]}).encode())
sig = b64(hmac.new(sys.argv[1].encode(), f"{head}.{body}".encode(), hashlib.sha256).digest())
print(f"{head}.{body}.{sig}")
PY
)
export ACCORD_JWT="$jwt" ACCORD_USER="$user"
wrk -t2 -c"$CONNECTIONS" -d"$DURATION" -s "$here/wrk/push.lua" "http://127.0.0.1:$port/rest/v1/rpc/push" >"$work/push.txt" 2>"$work/push.err"
wrk -t2 -c"$CONNECTIONS" -d"$DURATION" -s "$here/wrk/pull.lua" "http://127.0.0.1:$port/rest/v1/rpc/pull" >"$work/pull.txt" 2>"$work/pull.err"

echo "| measurement | median of $RUNS | runs (s) |"
echo "|---|---:|---|"
echo "| corpus, server lane, embedded | $(median "${embedded[@]}") s | ${embedded[*]} |"
echo "| corpus, server lane, HTTP to accord serve | $(median "${http[@]}") s | ${http[*]} |"
echo
echo "| RPC under wrk (-t2 -c$CONNECTIONS -d$DURATION) | requests/s | latency avg | non-2xx | errors logged |"
echo "|---|---:|---:|---:|---:|"
for rpc in push pull; do
  rps=$(awk '/Requests\/sec/ { print $2 }' "$work/$rpc.txt")
  lat=$(awk '/Latency/ { print $2; exit }' "$work/$rpc.txt")
  non2xx=$(awk '/Non-2xx/ { print $5 }' "$work/$rpc.txt")
  echo "| $rpc | $rps | $lat | ${non2xx:-0} | $(wc -l <"$work/$rpc.err") |"
done
