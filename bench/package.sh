#!/usr/bin/env bash
# The Debian package's size and install time (issue 26).
#
#   bench/package.sh [DEB]        # RUNS=5 install/remove rounds; builds the package when no DEB
#
# Prints: the release build time (when it builds), the .deb size, the installed size, and the
# wall time of `apt-get install -y ./the.deb` (dependencies already present) and of
# `dpkg -r accord`, each the median of RUNS rounds. Needs root or sudo. Leaves accord installed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=${RUNS:-5}
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
deb=${1:-}
if [ -z "$deb" ]; then
  work=$(mktemp -d)
  start=$(date +%s)
  (cd "$work" && "$root/scripts/package" >&2)
  echo "release build + package: $(($(date +%s) - start)) s"
  deb=$(ls "$work"/accord_*.deb)
fi
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
echo "package: $(basename "$deb")"
echo "deb size: $(stat -c %s "$deb") bytes ($(du -h "$deb" | cut -f1))"
echo "installed size: $(dpkg-deb -f "$deb" Installed-Size) KiB"
echo "binary: $(dpkg-deb -c "$deb" | awk '$6 == "./usr/bin/accord" { print $3 }') bytes (stripped)"
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
installs=()
removes=()
for _ in $(seq "$RUNS"); do
  $sudo dpkg -r accord >/dev/null 2>&1 || true
  start=$(date +%s%N)
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$deb" >/dev/null
  installs+=($((($(date +%s%N) - start) / 1000000)))
  start=$(date +%s%N)
  $sudo dpkg -r accord >/dev/null
  removes+=($((($(date +%s%N) - start) / 1000000)))
done
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$deb" >/dev/null
echo "apt-get install: median $(printf '%s\n' "${installs[@]}" | median) ms of ${installs[*]} ms"
echo "dpkg -r: median $(printf '%s\n' "${removes[@]}" | median) ms of ${removes[*]} ms"
