#!/usr/bin/env bash
# From nothing to a green corpus: a server team's first run of Accord (docs/server-contract.md,
# "Walk-through"). Tests/AccordEndToEndTests/FixtureAdapterTests.swift runs this very file.
#
#   ACCORD     the accord binary               (default: accord, from the Debian package)
#   CORPUS     the upstream corpus folder      (default: kizunasync/packages/protocol)
#   SERVER     how your server starts; it gets --db FILE --jwt-secret S --listen 127.0.0.1:0 and
#              prints "listening on http://127.0.0.1:PORT" (default, in an Accord checkout: the
#              small SQLite server Accord's tests use, Tests/Fixtures/sqlite-sync-server.py)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ACCORD="${ACCORD:-accord}"
CORPUS="${CORPUS:-kizunasync/packages/protocol}"
if [ -z "${SERVER:-}" ]; then
  sample="$here/../../Tests/Fixtures/sqlite-sync-server.py"
  [ -f "$sample" ] || { echo "walkthrough: set SERVER to the command that starts your server (see the top of $0)" >&2; exit 78; }
  SERVER="python3 $sample"
fi
work="$(mktemp -d)"
secret="walkthrough-$$"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

# 1. Your server, on its own database, as it runs in development. Accord talks to it over the
#    PostgREST surface (rpc/pull, rpc/push) with HS256 JWTs it mints from the same secret.
exec {server_out}< <(exec $SERVER --db "$work/app.sqlite" --jwt-secret "$secret" --listen 127.0.0.1:0)
pids+=($!)
read -r line <&"$server_out"
server="http://${line##*http://}"
echo "1. the server listens on $server"

# 2. The fixture adapter in front of it: it answers /accord/fixtures/* (seed, capabilities,
#    step, change, commit) by working on the server's database, and passes everything else
#    through. Copy samples/fixture-adapter/accord_fixture_adapter.py into your repo and rewrite
#    its Database class for your schema; here it runs as shipped, over the sample server's.
exec {adapter_out}< <(exec python3 "$here/accord_fixture_adapter.py" --db "$work/app.sqlite" --upstream "$server" --listen 127.0.0.1:0)
pids+=($!)
read -r line <&"$adapter_out"
adapter="http://${line##*http://}"
echo "2. the adapter listens on $adapter"

# 3. What the adapter declares it can steer: Accord judges by it (server-contract.md §2).
echo "3. capabilities: $(curl -fsS "$adapter/accord/fixtures/capabilities")"

# 4. One case first: a bootstrap pull. A setup mistake here is one line and exit 78.
"$ACCORD" run --server "$adapter" --jwt-secret "$secret" "$CORPUS" --filter 'pull/001*' --quiet

# 5. The whole corpus, with a JUnit report for CI. Accord brings the setup five cases need.
"$ACCORD" run --server "$adapter" --jwt-secret "$secret" "$CORPUS" --junit "$work/corpus.xml" --quiet
echo "5. the whole corpus passed"
