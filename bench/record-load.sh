#!/usr/bin/env bash
# accord record under load: CONNECTIONS (200) concurrent keep-alive clients for DURATION (30s)
# of pushes through the proxy to accord serve, all on loopback, every process stopped at the
# end. Passes when wrk saw no error and no non-2xx answer, and the recording holds every
# completed exchange exactly once (each push carries a distinct mutation id).
#
#   bench/record-load.sh            # ACCORD=path skips the release build
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
CONNECTIONS="${CONNECTIONS:-200}"
DURATION="${DURATION:-30s}"
secret="record-load-secret"
user="00000000-0000-4000-8000-a10000000001"
work="$(mktemp -d "${TMPDIR:-/tmp}/accord-record-load.XXXXXX")"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill -INT "$pid" 2>/dev/null || true; done; sleep 1; for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

if [[ -z "${ACCORD:-}" ]]; then
  (cd "$root" && swift build -c release --product accord >&2)
  ACCORD="$(cd "$root" && swift build -c release --show-bin-path)/accord"
fi
listening() { for _ in $(seq 100); do grep -q listening "$1" && break; sleep 0.1; done; sed -nE 's/.*127\.0\.0\.1:([0-9]+).*/\1/p' "$1" | head -n1; }

timeout 600 "$ACCORD" serve --listen 127.0.0.1:0 --jwt-secret "$secret" --fixtures >"$work/serve.log" 2>&1 &
pids+=($!)
serve_port=$(listening "$work/serve.log")
curl -sf -X POST "http://127.0.0.1:$serve_port/accord/fixtures/seed" -H 'Content-Type: application/json' \
  -d '{"server":{"min_schema_version":1,"tables":{"todos":{"bucket_column":"owner_id"}},"tombstone_ttl_days":30}}' >/dev/null
timeout 600 "$ACCORD" record --upstream "http://127.0.0.1:$serve_port" --listen 127.0.0.1:0 --out "$work/load.jsonl" --quiet \
  >"$work/record.log" 2>&1 &
record_pid=$!
pids+=("$record_pid")
port=$(listening "$work/record.log")
jwt=$(python3 - "$secret" "$user" <<'PY'
import base64, hashlib, hmac, json, sys
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
body = b64(json.dumps({"sub": sys.argv[2], "session_id": "00000000-0000-4000-8000-c10000000001"}).encode())
print(f"{head}.{body}.{b64(hmac.new(sys.argv[1].encode(), f'{head}.{body}'.encode(), hashlib.sha256).digest())}")
PY
)
ACCORD_JWT="$jwt" ACCORD_USER="$user" wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --timeout 10s -s "$here/wrk/push.lua" \
  "http://127.0.0.1:$port/rest/v1/rpc/push" >"$work/wrk.txt" 2>"$work/wrk.err"
kill -INT "$record_pid"
wait "$record_pid" || true
completed=$(awk '/requests in/ { print $1 }' "$work/wrk.txt")
non2xx=$(awk '/Non-2xx/ { print $5 }' "$work/wrk.txt")
socket=$(grep -E 'Socket errors' "$work/wrk.txt" || true)
read -r lines unique <<<"$(python3 - "$work/load.jsonl" <<'PY'
import json, sys
ids = []
with open(sys.argv[1]) as f:
    next(f)
    for line in f:
        for m in json.loads(line)["request"]["batch"]["mutations"]:
            ids.append(m["mutation_id"])
print(len(ids), len(set(ids)))
PY
)"
echo "| connections | duration | completed by wrk | non-2xx | socket errors | exchanges recorded | distinct ids |"
echo "|---:|---|---:|---:|---|---:|---:|"
echo "| $CONNECTIONS | $DURATION | $completed | ${non2xx:-0} | ${socket:-none} | $lines | $unique |"
status=0
[[ -z "$socket" && -z "$non2xx" && "$lines" == "$unique" && "$lines" -ge "$completed" ]] || status=1
[[ -s "$work/wrk.err" ]] && { echo "wrk logged:"; head -5 "$work/wrk.err"; status=1; }
exit $status
