#!/usr/bin/env bash
# Two builds of accord alternated over the corpus lanes: the server lane (embedded) over the shared
# corpus and Conformance/powersync, the client lane (the build's own reference driver) over the
# same, accord check over the shared corpus and Conformance, and accord check over a large
# recording. Each run is the whole process; OLD and NEW alternate so that the machine's drift
# falls on both. Prints each run, then per measurement the medians, the median of the pairwise
# ratios NEW/OLD with their range, and the median peak RSS.
#
#   bench/lanes-ab.sh OLD_ACCORD NEW_ACCORD [RECORDING]
#   PAIRS=10 bench/lanes-ab.sh OLD NEW /tmp/bench100.jsonl   # python3 bench/gen-recording.py --size-mib 100
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
[[ $# -ge 2 && -x "$1" && -x "$2" ]] || { echo "usage: bench/lanes-ab.sh OLD_ACCORD NEW_ACCORD [RECORDING]" >&2; exit 64; }
old="$1"
new="$2"
recording="${3:-}"
pairs="${PAIRS:-6}"
corpus="$root/../shared/kizunasync-protocol"
out="$(mktemp "${TMPDIR:-/tmp}/accord-lanes-ab.XXXXXX")"
trap 'rm -f "$out" "$out.err"' EXIT

run() {
  local name="$1"
  shift
  for _ in $(seq "$pairs"); do
    for side in old new; do
      local bin="$old"
      [[ "$side" == new ]] && bin="$new"
      local args=("${@//ACCORD/$bin}")
      /usr/bin/time -f "$name $side %e %M" "$bin" "${args[@]}" >/dev/null 2>>"$out.err" || true
      tail -1 "$out.err" | tee -a "$out"
    done
  done
}

run server run --server embedded "$corpus" --quiet
run server-powersync run --server embedded "$root/Conformance/powersync" --quiet
run client run --client "ACCORD driver" "$corpus" --quiet
run client-powersync run --client "ACCORD driver --profile powersync" "$root/Conformance/powersync" --quiet
run check check "$corpus" "$root/Conformance"
[[ -n "$recording" ]] && run check-recording check "$recording"

python3 - "$out" <<'PY'
import statistics as st, sys
rows = [line.split() for line in open(sys.argv[1]) if len(line.split()) == 4]
for name in dict.fromkeys(r[0] for r in rows):
    old = [float(r[2]) for r in rows if r[0] == name and r[1] == "old"]
    new = [float(r[2]) for r in rows if r[0] == name and r[1] == "new"]
    ratios = [b / a for a, b in zip(old, new) if a > 0]
    rss = lambda side: st.median(float(r[3]) / 1024 for r in rows if r[0] == name and r[1] == side)
    print(f"{name}: {len(old)} pairs, old {st.median(old):.3f} s, new {st.median(new):.3f} s, "
          f"new/old {st.median(ratios):.2f} [{min(ratios):.2f}-{max(ratios):.2f}], peak MiB {rss('old'):.1f} -> {rss('new'):.1f}")
PY
