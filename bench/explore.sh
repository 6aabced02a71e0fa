#!/usr/bin/env bash
# accord explore's throughput: scenarios and steps per second against a server target, from the
# counts its JUnit report gives (the three oracles' testcases carry "over N scenarios that raised
# nothing (M steps)"), with wall and CPU time and peak RSS from /usr/bin/time. A finding ends the
# run early and is printed; a clean run is what the figures in docs/benchmarks.md come from.
#
#   bench/explore.sh ACCORD [BUDGET] [SEED] [-- extra explore options]
#   bench/explore.sh .build/release/accord 600s 1                      # the 10-minute clean run
#   bench/explore.sh .build/release/accord 60s 1 -- --jobs 1
#   bench/explore.sh .build/release/accord 2000 1 -- --server postgres://postgres@127.0.0.1:5432/accord
#   bench/explore.sh .build/release/accord 600s 1 -- --client 'accord driver'   # a client, kills and storage faults on
set -euo pipefail
[[ $# -ge 1 && -x "$1" ]] || { echo "usage: bench/explore.sh ACCORD [BUDGET] [SEED] [-- explore options]" >&2; exit 64; }
bin="$1"
budget="${2:-60s}"
seed="${3:-1}"
shift $(( $# < 3 ? $# : 3 ))
[[ "${1:-}" == "--" ]] && shift
extra=("$@")
server=(--server embedded)
for arg in "${extra[@]}"; do [[ "$arg" == "--server" || "$arg" == "--client" ]] && server=(); done
out="$(mktemp -d "${TMPDIR:-/tmp}/accord-explore-bench.XXXXXX")"
trap 'rm -rf "$out"' EXIT

set +e
/usr/bin/time -f "%e %U %S %M" -o "$out/time" "$bin" explore "${server[@]}" --budget "$budget" --seed "$seed" \
  --findings "$out/findings" --junit "$out/junit.xml" --quiet "${extra[@]}" > "$out/stdout" 2>&1
status=$?
set -e
read -r wall user sys rss < "$out/time"
python3 - "$out/junit.xml" "$wall" "$user" "$sys" "$rss" "$status" "$budget" "$seed" <<'PY'
import re, sys
path, wall, user, sys_, rss, status, budget, seed = sys.argv[1:]
text = open(path, encoding="utf-8").read()
scenarios = steps = 0
for m in re.finditer(r'name="rules"[^>]*>\s*<system-out>[^<]*?over (\d+) scenarios? that raised nothing \((\d+) steps\)', text):
    scenarios += int(m.group(1)); steps += int(m.group(2))
devices = sum(int(m.group(1)) for m in re.finditer(r'(\d+) (?:devices converged|clients held)', text))
unrepeated = sum(int(m.group(1)) for m in re.finditer(r'name="rules"[^>]*>\s*<system-out>[^<]*?(\d+) failed once and not when played again', text))
findings = len(re.findall(r'<testcase name="scenario ', text))
wall = float(wall)
print(f"budget {budget}, seed {seed}, exit {status}")
print(f"scenarios {scenarios}, steps {steps}, devices judged {devices}, findings {findings}"
      + (f", failed once and not again {unrepeated}" if unrepeated else ""))
for m in re.finditer(r'name="rules"[^>]*>\s*<system-out>[^<]*?failed once and not when played again \(first: ([^)]*)\)', text):
    print(f"failed once and not again, first: {m.group(1)}")
for m in re.finditer(r'name="convergence"[^>]*>\s*<system-out>[^<]*?(\d+) not compared \(first: .*?; by reason: ([^<]*)\)', text):
    print(f"not compared {m.group(1)}, by reason: {m.group(2)}")
print(f"wall {wall:.1f} s, CPU {float(user) + float(sys_):.1f} s, peak RSS {int(rss) / 1024:.0f} MiB")
if wall > 0:
    print(f"{scenarios / wall:.1f} scenarios/s, {steps / wall:.0f} steps/s")
PY
if [[ "$status" != 0 ]]; then cat "$out/stdout"; fi
