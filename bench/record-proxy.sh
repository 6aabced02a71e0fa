#!/usr/bin/env bash
# Recording-proxy overhead: accord record next to a direct connection and mitmdump, measured by
# the shared harness (../shared/bench/run.sh, used in place, never copied) in one run.
#
#   bench/record-proxy.sh              # builds release, runs run.sh once, prints its table
#   ROUNDS=3 bench/record-proxy.sh     # any run.sh setting passes through (see its README)
#   ACCORD=/path/to/accord bench/record-proxy.sh   # measure a given binary, skip the build
#
# Needs wrk (or LOADGEN=python) and, for the mitmdump column, $BENCH_WORK/.venv from
# ../shared/bench/setup.sh (MITM=0 leaves mitmdump out). Writes under $BENCH_WORK
# (default /tmp/accord-bench); results in $BENCH_WORK/results/latest/.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
bench="$(cd "$root/../shared/bench" && pwd)"

if [[ -z "${ACCORD:-}" ]]; then
  (cd "$root" && swift build -c release --product accord >&2)
  ACCORD="$(cd "$root" && swift build -c release --show-bin-path)/accord"
fi
[[ -x "$ACCORD" ]] || { echo "record-proxy.sh: no accord binary at $ACCORD" >&2; exit 2; }
"$ACCORD" help record >/dev/null 2>&1 || { echo "record-proxy.sh: $ACCORD has no 'record' subcommand" >&2; exit 2; }

export BENCH_WORK="${BENCH_WORK:-${TMPDIR:-/tmp}/accord-bench}"
export CANDIDATE_NAME="${CANDIDATE_NAME:-accord-record}"
# run.sh exports UPSTREAM, PORT and FLOW_FILE to the candidate; exec keeps it in the foreground
# process group that run.sh stops with SIGTERM.
export CANDIDATE_CMD="exec '$ACCORD' record --upstream \"\$UPSTREAM\" --listen 127.0.0.1:\$PORT --out \"\$FLOW_FILE\" --quiet"
if [[ "${MITM:-1}" == 1 && ! -x "${MITMDUMP:-$BENCH_WORK/.venv/bin/mitmdump}" ]]; then
  echo "record-proxy.sh: mitmdump not installed (run $bench/setup.sh); measuring without it" >&2
  export MITM=0
fi
exec "$bench/run.sh"
