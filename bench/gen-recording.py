#!/usr/bin/env python3
"""Generate a large, valid accord recording (JSON Lines) for throughput benchmarks.

The output is deterministic for a given --seed and --size-mib. Every exchange is valid
KizunaSync traffic that passes every `accord check` rule, so a benchmark over it measures
the full parse + decode + rules path rather than an early failure:

* 64 clients (each its own client_id and user, one bucket {"owner_id": <user>} on "todos"),
  interleaved at random. Each client keeps its own cursor state.
* Pulls ask with limit 100 and the previous response's cursor ("0" first). A page holds
  20..100 entries (rows, and a few tombstones); seqs come from one global increasing
  counter, so every delivered seq is above the request's high-water. A page of exactly
  100 entries is a continuation page: has_more:true and cursor "<start>:<last seq>",
  <start> being the checkpoint the transfer started from. A shorter page closes the
  checkpoint: has_more:false and a plain cursor at the global horizon (>= every seq
  delivered). A few polls find nothing new (empty page, has_more:false).
* Pushes carry 1..20 mutations (insert/update/delete; some with precondition, hlc or an
  increment transform) in a non-atomic batch, answered by one verdict per mutation in
  request order: mostly applied, some rejected with a reason from the closed set and a
  server_row object or null. A few atomic batches are answered all-applied, and a few are
  aborted: {"batch":{"offender_mutation_id":<member>,"outcome":"aborted",...}}.
* Near the end (the last ~0.5% of the bytes) the global counter jumps past 2^53, to
  9007199254740993, so seqs and cursors there need exact big-decimal comparison.
* At the end every client left mid-transfer gets its closing page.

Python 3 standard library only; JSON is compact with keys in sorted (canonical) order.
"""

import argparse
import json
import random
import sys
import time

HEADER = (
    '{"accord_recording":1,"protocol":"kizunasync","redaction":{"policy":"default"},'
    '"started_at":"2026-11-30T00:00:00Z","tool":"accord-bench","upstream":"http://127.0.0.1:54321"}\n'
)
CLIENTS = 64
LIMIT = 100
PK_POOL = 4096
BIG_SEQ_START = 9007199254740993  # 2^53 + 1: not exactly representable as a double
REASONS = ("PRECONDITION", "RLS_DENIED", "COLUMN_DENIED", "CONSTRAINT", "DELETE_WINS", "SUPERSEDED")
RAW_TITLES = [
    "buy milk", "call the plumber", "renew passport", "write the quarterly report", "water the plants",
    "book flights to Osaka", "fix the flaky test", "review pull request #4211", "pay rent", "gym",
    "plan the offsite", "read \"Designing Data-Intensive Applications\"", "back up the NAS",
    "café with Zoë", "日本語のタイトル", "emoji 🎉 party", "tab\tseparated", "line\nbreak",
    "path C:\\Users\\kizuna", "update the README", "clean the garage", "send invoices", "", "x",
    "a somewhat longer title that goes on for a while to make some rows wider than others in the page",
]
TAGS = ('["home"]', '["work","urgent"]', '["errands"]', '[]', '["a","b","c"]', '[1,2,3]', '[true,false]')


def uuid4(rng):
    r = rng.getrandbits(128)
    s = "%032x" % r
    return "%s-%s-4%s-%s%s-%s" % (s[:8], s[8:12], s[13:16], "89ab"[r & 3], s[17:20], s[20:])


class Client:
    __slots__ = ("cid", "uid", "uid_json", "pks", "ring", "hw", "start", "cursor", "last_mid",
                 "pull_prefix", "push_prefix", "push_request_tail")

    def __init__(self, rng):
        self.cid = uuid4(rng)
        self.uid = uuid4(rng)
        self.pks = [uuid4(rng) for _ in range(PK_POOL)]
        self.ring = rng.randrange(PK_POOL)
        self.hw = 0            # high-water of the last response cursor
        self.start = None      # transfer start while a continuation is open
        self.cursor = "0"
        self.last_mid = None
        ident = '"identity":{"client":"%s","user":"%s"},' % (self.cid, self.uid)
        self.pull_prefix = (
            '"http":{"method":"POST","path":"/rest/v1/rpc/pull","request_headers":{},"response_headers":{},"status":200},'
            + ident + '"request":{"buckets":[{"params":{"owner_id":"%s"},"table":"todos"}],"client_id":"%s","cursor":"'
            % (self.uid, self.cid))
        self.push_prefix = (
            '"http":{"method":"POST","path":"/rest/v1/rpc/push","request_headers":{},"response_headers":{},"status":200},'
            + ident + '"request":{"batch":{"atomic":')
        self.push_request_tail = '"client_id":"%s",' % self.cid


class Generator:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        rng = self.rng
        self.clients = [Client(rng) for _ in range(CLIENTS)]
        self.seq = 0          # the global change counter (last seq drawn)
        self.exchange = 0
        self.at = 0           # microseconds since the recording started
        self.deleted_s = 0
        titles = []
        for index, title in enumerate(RAW_TITLES):
            titles.append(json.dumps(title, ensure_ascii=(index % 2 == 0)))
        self.titles = titles

    # --- shared pieces -------------------------------------------------------------------

    def _line_head(self):
        rng = self.rng
        self.exchange += 1
        self.at += 200 + int(rng.random() * 30000)
        at = self.at
        dur = 300 + int(rng.random() * 40000)
        return '{"at_ms":%d.%03d,"duration_ms":%d.%03d,"exchange":%d,' % (
            at // 1000, at % 1000, dur // 1000, dur % 1000, self.exchange)

    def _row_columns(self, owner):
        rng = self.rng
        r = rng.random()
        done = "true" if r < 0.4 else "false"
        likes = int(rng.random() * 500)
        title = self.titles[int(rng.random() * len(self.titles))]
        if r < 0.15:   # an array column
            return '{"done":%s,"likes":%d,"owner_id":"%s","tags":%s,"title":%s}' % (
                done, likes, owner, TAGS[int(rng.random() * len(TAGS))], title)
        if r < 0.2:    # a null column
            return '{"done":%s,"due":null,"likes":%d,"owner_id":"%s","title":%s}' % (done, likes, owner, title)
        if r < 0.25:   # an int64-class value, as a decimal string
            return '{"big":"%d","done":%s,"likes":%d,"owner_id":"%s","title":%s}' % (
                2**62 + int(rng.random() * 1000000), done, likes, owner, title)
        return '{"done":%s,"likes":%d,"owner_id":"%s","title":%s}' % (done, likes, owner, title)

    # --- pull ------------------------------------------------------------------------------

    def pull(self, client, closing=False):
        rng = self.rng
        r = rng.random()
        if closing:
            n = 20 + int(rng.random() * 80)                # 20..99
        elif client.start is None and r < 0.02:
            n = 0                                          # an idle poll
        elif r < 0.30:
            n = LIMIT                                      # a full page: continuation
        else:
            n = 20 + int(rng.random() * 80)                # 20..99: closes the checkpoint
        seq = self.seq
        rows = []
        tombs = []
        pks = client.pks
        ring = client.ring
        owner = client.uid
        row_columns = self._row_columns
        for _ in range(n):
            g = rng.random()
            seq += 1 if g < 0.6 else (2 + int(g * 10))     # other buckets' writes leave gaps
            pk = pks[ring]
            ring += 1
            if ring == PK_POOL:
                ring = 0
            if g > 0.96:
                self.deleted_s += 1
                d = self.deleted_s
                tombs.append('{"deleted_at":"2026-11-30T%02d:%02d:%02d.%03dZ","pk":"%s","seq":"%d","table":"todos"}' % (
                    (d // 3600) % 24, (d // 60) % 60, d % 60, d % 1000, pk, seq))
            else:
                rows.append('{"pk":"%s","row":%s,"seq":"%d","table":"todos"}' % (pk, row_columns(owner), seq))
        client.ring = ring
        request_cursor = client.cursor
        if n == LIMIT:
            start = client.start if client.start is not None else client.hw
            cursor = "%d:%d" % (start, seq)
            has_more = "true"
            client.start = start
            client.hw = seq
        else:
            seq += int(rng.random() * 4)                   # the horizon may pass this bucket's last seq
            cursor = "%d" % seq
            has_more = "false"
            client.start = None
            client.hw = seq
        self.seq = seq
        client.cursor = cursor
        return "%s%s%s\",\"limit\":%d,\"schema_version\":1},\"response\":{\"cursor\":\"%s\",\"has_more\":%s,\"rows\":[%s],\"signal\":null,\"tombstones\":[%s]},\"rpc\":\"pull\"}\n" % (
            self._line_head(), client.pull_prefix, request_cursor, LIMIT, cursor, has_more,
            ",".join(rows), ",".join(tombs))

    # --- push ------------------------------------------------------------------------------

    def _mutation(self, client):
        """One mutation and what an applied verdict reports (server_row or None)."""
        rng = self.rng
        mid = uuid4(rng)
        pk = client.pks[int(rng.random() * PK_POOL)]
        r = rng.random()
        server_row = None
        extra = ""
        if r < 0.4:
            op = "insert"
            pk = uuid4(rng)
            columns = self._row_columns(client.uid)
        elif r < 0.85:
            op = "update"
            s = rng.random()
            if s < 0.3:
                columns = '{"done":true}'
            elif s < 0.55:
                columns = '{"title":%s}' % self.titles[int(rng.random() * len(self.titles))]
            elif s < 0.7:
                columns = '{"done":false,"title":%s}' % self.titles[int(rng.random() * len(self.titles))]
                extra = ',"precondition":{"done":true}'
            elif s < 0.85:
                columns = '{"done":true}'
                extra = ',"transforms":{"likes":{"by":%d,"op":"increment"}}' % (1 + int(rng.random() * 3))
                server_row = self._row_columns(client.uid)
            else:
                columns = '{"tags":["home","work"]}'
                extra = ',"hlc":"2026-11-30T00:%02d:%02d.%03dZ|%d|%s"' % (
                    int(rng.random() * 60), int(rng.random() * 60), int(rng.random() * 1000), int(rng.random() * 9), client.cid[:8])
        else:
            op = "delete"
            columns = "{}"
        if extra.startswith(',"hlc"'):
            text = '{"columns":%s%s,"mutation_id":"%s","op":"%s","pk":"%s","table":"todos"}' % (columns, extra, mid, op, pk)
        elif extra.startswith(',"precondition"'):
            text = '{"columns":%s,"mutation_id":"%s","op":"%s","pk":"%s"%s,"table":"todos"}' % (columns, mid, op, pk, extra)
        elif extra:
            text = '{"columns":%s,"mutation_id":"%s","op":"%s","pk":"%s","table":"todos"%s}' % (columns, mid, op, pk, extra)
        else:
            text = '{"columns":%s,"mutation_id":"%s","op":"%s","pk":"%s","table":"todos"}' % (columns, mid, op, pk)
        return mid, text, server_row

    def push(self, client):
        rng = self.rng
        r = rng.random()
        if r < 0.03:
            kind = "abort"
            n = 2 + int(rng.random() * 9)
        elif r < 0.05:
            kind = "atomic-ok"
            n = 2 + int(rng.random() * 9)
        else:
            kind = "verdicts"
            n = 1 + int(rng.random() * 20)
        mutations = [self._mutation(client) for _ in range(n)]
        last = "null" if client.last_mid is None else '"%s"' % client.last_mid
        request = "%s%s,\"mutations\":[%s]},%s\"last_mutation_id\":%s,\"schema_version\":1}" % (
            client.push_prefix, "true" if kind != "verdicts" else "false",
            ",".join(m[1] for m in mutations), client.push_request_tail, last)
        if kind == "abort":
            offender = mutations[int(rng.random() * n)][0]
            response = '{"batch":{"offender_mutation_id":"%s","outcome":"aborted","reason":"CONSTRAINT","server_row":null}}' % offender
        else:
            verdicts = []
            for mid, _, server_row in mutations:
                v = rng.random()
                if kind == "verdicts" and v < 0.2:
                    reason = REASONS[int(v * 30) % 6]
                    if reason != "RLS_DENIED" and rng.random() < 0.6:
                        row = self._row_columns(client.uid)
                    else:
                        row = "null"
                    verdicts.append('{"mutation_id":"%s","reason":"%s","server_row":%s,"verdict":"rejected"}' % (mid, reason, row))
                elif server_row is not None:
                    verdicts.append('{"mutation_id":"%s","server_row":%s,"verdict":"applied"}' % (mid, server_row))
                else:
                    verdicts.append('{"mutation_id":"%s","verdict":"applied"}' % mid)
            response = '{"verdicts":[%s]}' % ",".join(verdicts)
            client.last_mid = mutations[-1][0]
        return '%s%s,"response":%s,"rpc":"push"}\n' % (self._line_head(), request, response)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mib", type=float, default=1100, help="target size in MiB (default 1100)")
    parser.add_argument("--out", required=True, help="output file (.jsonl)")
    parser.add_argument("--seed", type=int, default=20261130, help="random seed (default 20261130)")
    args = parser.parse_args()

    target = int(args.size_mib * 1024 * 1024)
    big_at = int(target * 0.995)
    gen = Generator(args.seed)
    rng = gen.rng
    clients = gen.clients
    began = time.monotonic()
    written = 0
    batch = [HEADER]
    batch_bytes = len(HEADER)
    with open(args.out, "wb") as out:
        while written + batch_bytes < target:
            if gen.seq < BIG_SEQ_START - 1 and written + batch_bytes >= big_at:
                gen.seq = BIG_SEQ_START - 1
            client = clients[int(rng.random() * CLIENTS)]
            if client.start is not None or rng.random() < 0.75:
                line = gen.pull(client)
            else:
                line = gen.push(client)   # only between transfers: a pull's pages stay together
            batch.append(line)
            batch_bytes += len(line)      # characters; close enough for batching, exact count below
            if len(batch) >= 4096:
                data = "".join(batch).encode("utf-8")
                out.write(data)
                written += len(data)
                batch = []
                batch_bytes = 0
        for client in clients:
            if client.start is not None:
                batch.append(gen.pull(client, closing=True))
        data = "".join(batch).encode("utf-8")
        out.write(data)
        written += len(data)
    elapsed = time.monotonic() - began
    print("wrote %s: %d bytes (%.1f MiB), %d exchanges, last seq %d, in %.1fs" % (
        args.out, written, written / 1048576, gen.exchange, gen.seq, elapsed), file=sys.stderr)


if __name__ == "__main__":
    main()
