#!/usr/bin/env bash
# The shared corpus in the server lane against upstream's KizunaSync pack on PostgreSQL, next to
# the embedded reference server; all on loopback, stopping by itself.
#
#   bench/server-lane-postgres.sh        # RUNS=10 runs of each
#
# Makes a throwaway cluster (initdb in a temporary folder, 127.0.0.1, a free port, the postgres
# OS user when run as root; stopped by its pid on exit), applies ../shared/kizunasync-sql's vendor
# stub and pack in place, then accord postgres-init. Reports, per run: wall time; the time
# PostgreSQL spent executing statements (pg_stat_statements' total_exec_time, reset before each
# run); the CPU time of the cluster's processes; accord's own CPU time.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
RUNS="${RUNS:-10}"
corpus="$root/../shared/kizunasync-protocol"
scenarios="$root/../shared/corpus-scenarios.json"
pack="$root/../shared/kizunasync-sql"
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)"
work="$(mktemp -d "${TMPDIR:-/tmp}/accord-pg-bench.XXXXXX")"
as=()
if [[ $(id -u) -eq 0 ]]; then chown postgres: "$work"; as=(setpriv --reuid=postgres --regid=postgres --init-groups); fi
pg_pid=""
cleanup() {
  [[ -n "$pg_pid" ]] && kill -INT "$pg_pid" 2>/dev/null && wait "$pg_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

(cd "$root" && swift build -c release >&2)
accord="$(cd "$root" && swift build -c release --show-bin-path)/accord"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${as[@]}" "$bin/initdb" -D "$work/data" -U postgres -A trust --no-sync -E UTF8 --locale=C >/dev/null
"${as[@]}" "$bin/postgres" -D "$work/data" -p "$port" -c listen_addresses=127.0.0.1 -c unix_socket_directories="$work" \
  -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_preload_libraries=pg_stat_statements \
  -c pg_stat_statements.track=top 2>"$work/pg.log" &
pg_pid=$!
until grep -q "ready to accept connections" "$work/pg.log"; do
  kill -0 "$pg_pid" 2>/dev/null || { cat "$work/pg.log" >&2; exit 1; }
  sleep 0.1
done
psql=("$bin/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres)
"${psql[@]}" -d postgres -c "create role anon nologin; create role authenticated nologin; create role service_role nologin bypassrls" \
  -c "create database accord"
"${psql[@]}" -d accord -f "$pack/pg-vendor-stub.sql" -f "$pack/0001_kizuna_init.sql" -c "create extension pg_stat_statements" >/dev/null
url="postgres://postgres@127.0.0.1:$port/accord"
"$accord" postgres-init "$url" >/dev/null

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# CPU seconds (user + system) of the postmaster and its children so far.
cluster_cpu() {
  local tick total=0 pid
  tick=$(getconf CLK_TCK)
  for pid in $pg_pid $(pgrep -P "$pg_pid"); do
    total=$((total + $(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  echo "$total / $tick" | bc -l
}
timed() { /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >"$work/out" 2>&1 || { cat "$work/out" >&2; exit 1; }; }

# The pack's one real failure (Expectations/kizunasync-pack.txt), so a run exits 0.
echo "lifecycle/005-bootstrap-after-reap-pages-to-completion" >"$work/known-failing"
embedded=()
for ((i = 0; i < RUNS; i++)); do
  timed "$accord" run --server embedded "$corpus" --scenarios "$scenarios"
  embedded+=("$(awk '{ print $1 }' "$work/time")")
done
wall=() exec_ms=() pg_cpu=() accord_cpu=()
for ((i = 0; i < RUNS; i++)); do
  "${psql[@]}" -d accord -c "select pg_stat_statements_reset()" >/dev/null
  before=$(cluster_cpu)
  timed "$accord" run --server "$url" "$corpus" --scenarios "$scenarios" --known-failing "$work/known-failing"
  after=$(cluster_cpu)
  read -r elapsed user system <"$work/time"
  wall+=("$elapsed")
  accord_cpu+=("$(echo "$user + $system" | bc -l)")
  pg_cpu+=("$(printf '%.2f' "$(echo "$after - $before" | bc -l)")")
  exec_ms+=("$("${psql[@]}" -d accord -At -c "select round(sum(total_exec_time)) from pg_stat_statements where dbid = (select oid from pg_database where datname = 'accord')")")
done

echo "| shared corpus (41 cases), server lane | median of $RUNS | runs |"
echo "|---|---:|---|"
echo "| embedded reference server: wall time | $(median "${embedded[@]}") s | ${embedded[*]} |"
echo "| the pack on PostgreSQL: wall time | $(median "${wall[@]}") s | ${wall[*]} |"
echo "| … of it, statements executing in PostgreSQL (total_exec_time) | $(median "${exec_ms[@]}") ms | ${exec_ms[*]} |"
echo "| … CPU of the cluster's processes | $(median "${pg_cpu[@]}") s | ${pg_cpu[*]} |"
echo "| … CPU of accord | $(median "${accord_cpu[@]}") s | ${accord_cpu[*]} |"
