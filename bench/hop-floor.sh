#!/usr/bin/env bash
# The floor under any proxy's figures on this machine, now: the shared harness (../shared/bench,
# used in place) with bench/hop-relay.c as its candidate, a relay that only copies bytes (no
# HTTP, no recording). Run it next to bench/record-proxy.sh: what accord record adds over this
# relay is its own cost; what the relay adds over direct is the extra loopback hop (two more
# wake-ups per request), which on a shared 2-core VM can alone exceed a millisecond.
#
#   bench/hop-floor.sh                 # MITM=0 (mitmdump left out), 1 round
#   ROUNDS=3 bench/hop-floor.sh        # any run.sh setting passes through (see its README)
#
# Needs gcc and wrk (or LOADGEN=python). Writes under $BENCH_WORK (default /tmp/accord-bench).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/../../shared/bench" && pwd)"
export BENCH_WORK="${BENCH_WORK:-${TMPDIR:-/tmp}/accord-bench}"
mkdir -p "$BENCH_WORK"
relay="$BENCH_WORK/hop-relay"
gcc -O2 -Wall -Wextra -Werror -o "$relay" "$here/hop-relay.c"
export MITM="${MITM:-0}"
export CANDIDATE_NAME="${CANDIDATE_NAME:-hop-relay}"
# run.sh exports PORT and UPSTREAM_PORT; the relay exits by itself after 1,800 s at the latest.
export CANDIDATE_CMD="exec '$relay' \"\$PORT\" \"\$UPSTREAM_PORT\" 1800"
exec "$bench/run.sh"
