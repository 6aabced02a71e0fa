#!/usr/bin/env bash
# The first streamed byte's time split into phases (bench/ttfb-phases.py): builds accord
# (release) and bench/hop-relay.c, then follows each /stream fetch through the scheduler's
# wake-ups under `perf sched record`, for direct, the byte-copying relay and accord record.
#
#   bench/ttfb-phases.sh                       # 40 fetches x 2 rounds per target
#   bench/ttfb-phases.sh --fetches 60 --rounds 3
#   ACCORD=/path/to/accord bench/ttfb-phases.sh
#
# Needs perf (Debian: linux-perf), gcc, and root or kernel.perf_event_paranoid <= -1.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
command -v perf >/dev/null || { echo "ttfb-phases.sh: perf not found (apt-get install linux-perf)" >&2; exit 2; }
if [[ -z "${ACCORD:-}" ]]; then
  (cd "$root" && swift build -c release --product accord >&2)
  ACCORD="$(cd "$root" && swift build -c release --show-bin-path)/accord"
fi
work="${BENCH_WORK:-${TMPDIR:-/tmp}/accord-bench}"
mkdir -p "$work"
gcc -O2 -Wall -Wextra -Werror -o "$work/hop-relay" "$here/hop-relay.c"
exec python3 "$here/ttfb-phases.py" --accord "$ACCORD" --relay "$work/hop-relay" "$@"
