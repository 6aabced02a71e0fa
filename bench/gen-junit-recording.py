#!/usr/bin/env python3
"""Generate a recording of N small, valid pull exchanges for the JUnit benchmark (bench/junit-100k.sh).

One client pulls one row at a time: exchange n asks from cursor n-1 and is answered with the row
of seq n and cursor n (has_more false). Every exchange passes every `accord check` rule, so
`accord check --junit` writes one passing testcase per exchange and the run measures the
reading, the rules and the JUnit writer, not an early failure. Standard library only;
deterministic for a given N.
"""

import argparse
import json

CLIENT = "00000000-0000-4000-8000-c10000000001"
USER = "00000000-0000-4000-8000-a10000000001"
HEADER = {
    "accord_recording": 1,
    "protocol": "kizunasync",
    "redaction": {"enabled": True, "jwt_values": True, "kept": [], "name_patterns": ["*token*", "*secret*", "*password*"],
                  "names": ["authorization", "proxy-authorization", "apikey", "cookie", "set-cookie"],
                  "placeholder": "<redacted:KIND:N>",
                  "scope": ["request_headers", "response_headers", "query", "request", "response"]},
    "started_at": "2026-12-01T00:00:00Z",
    "tool": "accord 0.1.0",
    "upstream": "http://127.0.0.1:54321",
}


def exchange(n):
    pk = "00000000-0000-4000-8000-%012d" % n
    return {
        "exchange": n,
        "at_ms": float(n),
        "duration_ms": 0.5,
        "http": {"method": "POST", "path": "/rest/v1/rpc/pull",
                 "request_headers": {"Content-Type": "application/json", "Content-Profile": "kizunasync"},
                 "response_headers": {"Content-Type": "application/json; charset=utf-8"}, "status": 200},
        "identity": {"client": CLIENT, "user": USER},
        "request": {"buckets": [{"params": {"owner_id": USER}, "table": "todos"}], "client_id": CLIENT,
                    "cursor": str(n - 1), "limit": 100, "schema_version": 1},
        "response": {"cursor": str(n), "has_more": False,
                     "rows": [{"pk": pk, "row": {"done": False, "id": pk, "owner_id": USER, "title": "task %d" % n},
                               "seq": str(n), "table": "todos"}],
                     "signal": None, "tombstones": []},
        "rpc": "pull",
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exchanges", type=int, default=100000, help="how many exchanges (default 100000)")
    parser.add_argument("--out", required=True, help="output file (.jsonl)")
    args = parser.parse_args()
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(json.dumps(HEADER, separators=(",", ":")) + "\n")
        for n in range(1, args.exchanges + 1):
            out.write(json.dumps(exchange(n), separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
