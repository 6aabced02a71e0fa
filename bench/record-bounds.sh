#!/usr/bin/env bash
# What one hostile client can still cost accord record and accord serve (issue 21), measured by
# bench/record-bounds.py on loopback: proxy CPU for a chunked upload against Content-Length,
# another client's latency while two clients send 1-byte chunks, peak RSS under unfinished
# bodies and pipelining against the buffer budget, and a new client's wait with the connection
# cap held by idle sockets. Every process it starts is stopped by its pid.
#
#   bench/record-bounds.sh                     # builds accord (release), runs parts a-d
#   bench/record-bounds.sh --parts ab --runs 5
#   ACCORD=/path/to/accord bench/record-bounds.sh
#
# Needs python3 only.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
command -v python3 >/dev/null || { echo "record-bounds.sh: python3 not found" >&2; exit 2; }
if [[ -z "${ACCORD:-}" ]]; then
  (cd "$root" && swift build -c release --product accord >&2)
  ACCORD="$(cd "$root" && swift build -c release --show-bin-path)/accord"
fi
[[ -x "$ACCORD" ]] || { echo "record-bounds.sh: no accord binary at $ACCORD" >&2; exit 2; }
exec python3 "$here/record-bounds.py" --accord "$ACCORD" "$@"
