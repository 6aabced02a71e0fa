#!/usr/bin/env python3
"""A small KizunaSync server over SQLite, for Accord's tests (Python 3, standard library only).

    sqlite-sync-server.py --db PATH --jwt-secret S [--listen 127.0.0.1:0] [--apikey K]

It serves the two PostgREST calls every KizunaSync client makes, `POST /rest/v1/rpc/pull` and
`POST /rest/v1/rpc/push` (docs/server-contract.md section 1: HS256 JWT with `sub` = user and
`session_id` = client, optional `apikey`, `Content-Profile: kizunasync`, PostgREST error JSON),
with the behaviour of Accord's Swift reference server (Sources/ReferenceServer), ported compactly.
It has NO fixture endpoint: samples/fixture-adapter/accord_fixture_adapter.py puts one in front of
it and drives this server's database file directly. So every bit of state lives in the file:

    kz_meta       next_seq, high_water, reap_horizon, clock_step (absent: wall clock), config (JSON)
    kz_rows       live rows (tbl, pk, seq of last write, data JSON)
    kz_cells      per column: seq, writer and origin clock (hlc) of its last write
    kz_tombstones hard deletes and bucket move-outs, with the bucket value the row had
    kz_ledger     recorded verdicts, replayed for a repeated mutation_id
    kz_grants     (user, client, table, bucket) pairs a pull delivered rows of (tombstone delivery)
    kz_conflicts  the conflict journal of journaled tables
    kz_pending    writes that took their seq but are not visible yet (another writer's open
                  transaction): a pull leaves their seqs as holes in its cursor

The database uses WAL mode; every request runs in one `BEGIN IMMEDIATE` transaction, and a busy
timeout rides out a writer in another process. It binds loopback only and prints
`listening on http://127.0.0.1:PORT` once it accepts connections; SIGTERM/SIGINT stop it.
"""
import argparse, base64, hashlib, hmac, ipaddress, json, math, re, signal, socket, sqlite3, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PROFILE, RPC_PREFIX = "kizunasync", "/rest/v1/rpc/"
DEFAULT_LIMIT, DEFAULT_SCAN_CAP, MAX_ATOMIC_BATCH = 500, 5000, 500
INT64, INT32 = (-(2**63), 2**63 - 1), (-(2**31), 2**31 - 1)
MISSING = object()

# The corpus domain (kizunasync-protocol/fixtures/domain.json) plus the reference server's policy:
# notices is pull-only; Accord's own `checklist` table has a read-only `version` and a NOT NULL
# `title` (its Conformance/ cases pin them; no upstream case touches it).
DOMAIN = {
    "todos": {"columns": {"deleted_at": "timestamptz", "done": "boolean", "id": "uuid", "labels": "text[]",
                          "likes": "integer", "owner_id": "uuid", "title": "text", "version": "integer"}},
    "checklist": {"columns": {"done": "boolean", "id": "uuid", "owner_id": "uuid", "title": "text", "version": "integer"},
                  "read_only": {"version"}, "not_null": {"title"}},
    "notices": {"columns": {"body": "text", "id": "bigint", "owner_id": "uuid"}, "pull_only": True},
    "seats": {"columns": {"hall": "bigint", "holder": "text", "owner_id": "uuid", "seat": "integer"}, "keys": ["hall", "seat"]},
    "tags": {"columns": {"id": "uuid", "label": "text", "owner_id": "uuid"}},
}
DEFAULT_CONFIG = {"min_schema_version": 1, "tombstone_ttl_days": 30,
                  "tables": {name: {"bucket_column": "owner_id"} for name in DOMAIN}}

SCHEMA = """
CREATE TABLE IF NOT EXISTS kz_meta(key TEXT PRIMARY KEY, value);
CREATE TABLE IF NOT EXISTS kz_rows(tbl TEXT NOT NULL, pk TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY(tbl, pk));
CREATE INDEX IF NOT EXISTS kz_rows_table_seq ON kz_rows(tbl, seq);
CREATE TABLE IF NOT EXISTS kz_cells(tbl TEXT NOT NULL, pk TEXT NOT NULL, col TEXT NOT NULL, seq INTEGER NOT NULL,
    writer TEXT NOT NULL, hlc TEXT, PRIMARY KEY(tbl, pk, col));
CREATE TABLE IF NOT EXISTS kz_tombstones(seq INTEGER PRIMARY KEY, tbl TEXT NOT NULL, pk TEXT NOT NULL,
    deleted_at TEXT NOT NULL, bucket TEXT NOT NULL, actor TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS kz_tombstones_key ON kz_tombstones(tbl, pk);
CREATE INDEX IF NOT EXISTS kz_tombstones_table_seq ON kz_tombstones(tbl, seq);
CREATE TABLE IF NOT EXISTS kz_ledger(mutation_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, client_id TEXT NOT NULL,
    applied INTEGER NOT NULL, reason TEXT, has_row INTEGER NOT NULL, tbl TEXT NOT NULL, pk TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS kz_grants(user_id TEXT NOT NULL, client_id TEXT NOT NULL, tbl TEXT NOT NULL,
    bucket TEXT NOT NULL, PRIMARY KEY(user_id, client_id, tbl, bucket));
CREATE TABLE IF NOT EXISTS kz_conflicts(id INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT NOT NULL, pk TEXT NOT NULL,
    col TEXT NOT NULL, mode TEXT NOT NULL, loser TEXT NOT NULL, winner_mutation TEXT NOT NULL,
    winner_seq INTEGER NOT NULL, bucket TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS kz_pending(id INTEGER PRIMARY KEY AUTOINCREMENT, txn TEXT NOT NULL, seq INTEGER NOT NULL,
    at TEXT NOT NULL, change TEXT NOT NULL);
"""


# ---------------------------------------------------------------- JSON and value helpers

class JObj(dict):
    dup = None  # the first repeated key: PostgREST and the strict readers refuse them


def parse_json(raw):
    def pairs(items):
        obj = JObj()
        for key, value in items:
            obj.dup = obj.dup or (key if key in obj else None)
            obj[key] = value
        return obj

    def no_constant(name):
        raise ValueError(f"invalid literal {name}")
    return json.loads(raw.decode("utf-8"), object_pairs_hook=pairs, parse_constant=no_constant)


def canon(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def same(a, b):
    """JSON equality (true is not 1, "1" is not 1); a missing value equals nothing."""
    return a is not MISSING and b is not MISSING and canon(a) == canon(b)


def is_int(v):
    return type(v) is int


def is_scalar(v):
    return isinstance(v, (str, bool)) or is_int(v)


def in_range(v, bounds):
    return bounds[0] <= v <= bounds[1]


def is_decimal(text):
    return re.fullmatch(r"0|[1-9][0-9]*", text) is not None


def int64_of(v):
    """An integer a JSON value spells: an integer literal, or a decimal string; None past int64."""
    if is_int(v):
        return v if in_range(v, INT64) else None
    if isinstance(v, str) and is_decimal(v[1:] if v.startswith("-") else v):
        n = int(v)
        return n if in_range(n, INT64) else None
    return None


def type_name(v):
    return {bool: "boolean", int: "number", float: "number", str: "string", list: "array", type(None): "null"}.get(type(v), "object")


UUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
NAME_RE = re.compile(r"[a-z][a-z0-9_]*")
HLC_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z\|[0-9]+\|.+", re.S)


def accepts(ctype, v):
    """Whether a value fits a column type (a mismatch is a CONSTRAINT verdict); null always does."""
    if v is None: return True
    if ctype == "uuid": return isinstance(v, str) and UUID_RE.fullmatch(v) is not None
    if ctype == "text": return isinstance(v, str)
    if ctype == "timestamptz": return isinstance(v, str) and len(v) >= 10 and v[0].isnumeric()
    if ctype == "boolean": return isinstance(v, bool)
    if ctype == "integer": return int64_of(v) is not None and in_range(int64_of(v), INT32)
    if ctype == "bigint": return int64_of(v) is not None
    if ctype == "text[]": return isinstance(v, list) and all(isinstance(x, str) for x in v)
    return True


def clock_text(step):
    """Step n of the logical clock: 2026-01-01T00:00:<n>.000Z, seconds rolling into minutes and hours."""
    if step is None:
        now = time.time()
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + ".%03dZ" % int(now % 1 * 1000)
    s = max(step, 0)
    return "2026-01-01T%02d:%02d:%02d.000Z" % (s // 3600, s // 60 % 60, s % 60)


def parse_hlc(text):
    """An origin clock <iso>|<logical>|<node> as a comparable tuple, or None."""
    parts = text.split("|", 2) if isinstance(text, str) else []
    if len(parts) != 3 or not re.fullmatch(r"[+-]?[0-9]+", parts[1]):
        return None
    return (parts[0], int(parts[1]), parts[2])


def key_components(pk, keys):
    """The component texts of a row key (D-row-key), or None when the text is not canonical."""
    if len(keys) == 1:
        return [pk]
    try:
        items = json.loads(pk)
    except ValueError:
        return None
    if not isinstance(items, list) or len(items) != len(keys) or not all(isinstance(i, str) for i in items):
        return None
    text = "[" + ", ".join(json.dumps(i, ensure_ascii=False) for i in items) + "]"
    return items if text == pk else None


def component_text(v):
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, str): return v
    if is_int(v): return str(v)
    return None


# ---------------------------------------------------------------- strict request readers

class WireError(Exception):
    def __init__(self, at, detail, code="22023"):
        super().__init__(f"JSON at {at or '/'}: {detail}")
        self.code = code


def fail_if(bad, at, detail, code="22023"):
    if bad:
        raise WireError(at, detail, code)


class Reader:
    """Reads one JSON object strictly: each key once, unknown keys refused at finish()."""

    def __init__(self, value, at):
        fail_if(not isinstance(value, dict), at, f"expected an object, found {type_name(value)}")
        fail_if(value.dup is not None, f"{at}/{value.dup}", f'duplicate key "{value.dup}"')
        self.obj, self.at, self.seen = value, at, set()

    def opt(self, key):
        if key in self.obj:
            self.seen.add(key)
            return self.obj[key]
        return MISSING

    def req(self, key):
        value = self.opt(key)
        fail_if(value is MISSING, self.at, f'missing required key "{key}"')
        return value

    def typed(self, key, ok, what, optional=False, null_ok=False):
        value = self.opt(key) if optional else self.req(key)
        if value is MISSING or (null_ok and value is None):
            return None
        fail_if(not ok(value), f"{self.at}/{key}", f"expected {what}, found {type_name(value)}")
        return value

    def string(self, key, optional=False, null_ok=False):
        return self.typed(key, lambda v: isinstance(v, str), "a string", optional, null_ok)

    def integer(self, key, optional=False):
        return self.typed(key, lambda v: is_int(v) and in_range(v, INT64), "an integer", optional)

    def grammar(self, key, regex, what, optional=False, null_ok=False):
        text = self.string(key, optional, null_ok)
        fail_if(text is not None and regex.fullmatch(text) is None, f"{self.at}/{key}", f'"{text}" is not {what}')
        return text

    def columns(self, key, optional=False):
        value = self.opt(key) if optional else self.req(key)
        return None if value is MISSING else column_values(value, f"{self.at}/{key}")

    def finish(self):
        for key in self.obj:
            fail_if(key not in self.seen, f"{self.at}/{key}", f'unknown key "{key}"')


def column_values(value, at):
    """Column values: strings, integers, booleans, nulls, or arrays of non-null scalars."""
    fail_if(not isinstance(value, dict), at, f"expected an object of column values, found {type_name(value)}")
    fail_if(value.dup is not None, f"{at}/{value.dup}", f'duplicate column "{value.dup}"')
    for key, v in value.items():
        fail_if(isinstance(v, (dict, float)), f"{at}/{key}", "a column value is a scalar or an array of scalars (integers only)")
        fail_if(isinstance(v, list) and not all(map(is_scalar, v)), f"{at}/{key}", "array items are strings, integers or booleans")
    return value


def parse_cursor(text):
    """`<hw>`, `<hw>~<h1>.<h2>…` or `<start>:<hw>[~holes]`, canonical only: (start, hw, holes) or None."""
    m = re.fullmatch(r"(?:([0-9]+):)?([0-9]+)(?:~([0-9.]+))?", text)
    if not m:
        return None
    parts = [m.group(1) or "0", m.group(2)] + (m.group(3).split(".") if m.group(3) else [])
    if not all(is_decimal(p) for p in parts):
        return None
    start, hw, holes = int(m.group(1)) if m.group(1) else None, int(parts[1]), [int(h) for h in parts[2:]]
    if any(h == 0 or h >= hw or (i and holes[i - 1] >= h) for i, h in enumerate(holes)):
        return None
    return (start if start is not None else hw, hw, holes)


def parse_pull(body):
    r = Reader(body, "")
    raw = r.typed("buckets", lambda v: isinstance(v, list), "an array")
    fail_if(len(raw) > 64, "/buckets", f"a pull names at most 64 buckets, found {len(raw)} (22023)")
    buckets = []
    for i, element in enumerate(raw):
        b = Reader(element, f"/buckets/{i}")
        table = b.grammar("table", NAME_RE, "a table or column name ([a-z][a-z0-9_]*)")
        params = Reader(b.req("params"), f"/buckets/{i}/params").obj
        for key, v in params.items():
            fail_if(not is_scalar(v), f"/buckets/{i}/params/{key}", f"a bucket parameter is a string, integer or boolean, found {type_name(v)}")
        b.finish()
        buckets.append((table, params))
    text = r.string("cursor")
    cursor = parse_cursor(text)
    fail_if(cursor is None, "/cursor", f'"{text}" is not a canonical cursor token', code="22P02")
    version = r.integer("schema_version")
    fail_if(version < 1, "/schema_version", "schema_version is at least 1")
    limit = r.integer("limit", optional=True)
    fail_if(limit is not None and limit < 1, "/limit", "limit is at least 1")
    client = r.grammar("client_id", UUID_RE, "a uuid", optional=True)
    r.finish()
    return dict(buckets=buckets, text=text, cursor=cursor, version=version, limit=limit, client=client)


def parse_transform(value, at):
    r = Reader(value, at)
    op = r.string("op")
    if op == "increment":
        by = r.req("by")
        decimal = isinstance(by, str) and re.fullmatch(r"-?(0|[1-9][0-9]*)", by)
        fail_if(not (is_int(by) or decimal), f"{at}/by", "increment.by is an integer or a decimal string")
        transform = {"op": op, "by": by}
    elif op in ("arrayUnion", "arrayRemove"):
        values = r.typed("values", lambda v: isinstance(v, list), "an array")
        fail_if(not values, f"{at}/values", "values needs at least one item")
        fail_if(not all(map(is_scalar, values)), f"{at}/values", "array items are strings, integers or booleans")
        transform = {"op": op, "values": values}
    else:
        raise WireError(f"{at}/op", f'unknown transform op "{op}"')
    r.finish()
    return transform


def parse_mutation(value, at):
    r = Reader(value, at)
    m = {"id": r.grammar("mutation_id", UUID_RE, "a uuid"),
         "table": r.grammar("table", NAME_RE, "a table or column name ([a-z][a-z0-9_]*)")}
    m["pk"] = r.string("pk")
    fail_if(not m["pk"], f"{at}/pk", "a row key is never empty")
    m["op"] = r.req("op")
    fail_if(m["op"] not in ("insert", "update", "delete"), f"{at}/op", f"unknown op {canon(m['op'])}")
    m["columns"] = r.columns("columns")
    m["precondition"] = r.columns("precondition", optional=True)
    m["transforms"] = []
    raw = r.opt("transforms")
    if raw is not MISSING:
        for key, t in Reader(raw, f"{at}/transforms").obj.items():
            fail_if(key in m["columns"], f"{at}/transforms/{key}", f'column "{key}" appears in both columns and transforms')
            m["transforms"].append((key, parse_transform(t, f"{at}/transforms/{key}")))
        fail_if(m["transforms"] and m["op"] != "update", f"{at}/transforms", "transforms ride op update only")
    m["hlc"] = r.grammar("hlc", HLC_RE, "an origin clock <iso>|<logical>|<node>", optional=True)
    r.opt("base_hint")
    r.finish()
    return m


def parse_push(body):
    r = Reader(body, "")
    batch = Reader(r.req("batch"), "/batch")
    atomic = batch.typed("atomic", lambda v: isinstance(v, bool), "a boolean")
    raw = batch.typed("mutations", lambda v: isinstance(v, list), "an array")
    mutations = [parse_mutation(m, f"/batch/mutations/{i}") for i, m in enumerate(raw)]
    batch.finish()
    fail_if("last_mutation_id" not in body, "", 'missing required key "last_mutation_id"')
    r.grammar("last_mutation_id", UUID_RE, "a uuid", null_ok=True)
    version = r.integer("schema_version")
    fail_if(version < 1, "/schema_version", "schema_version is at least 1")
    client = r.grammar("client_id", UUID_RE, "a uuid", optional=True)
    r.finish()
    return dict(atomic=atomic, mutations=mutations, version=version, client=client)


# ---------------------------------------------------------------- configuration and storage

class Table:
    """A synced table: the domain's columns and policy plus the case's bucket/conflict/journal settings."""

    def __init__(self, name, cfg):
        known = DOMAIN.get(name)
        self.name, self.typed = name, known is not None
        known = known or {}
        self.columns = known.get("columns", {})
        self.keys = cfg["key_columns"] if "key_columns" in cfg else known.get("keys", ["id"])
        self.bucket = cfg.get("bucket_column")
        self.pull_only = known.get("pull_only", False)
        self.read_only, self.not_null = known.get("read_only", set()), known.get("not_null", set())
        self.hlc = cfg.get("conflict_mode") == "hlc"
        self.mode = "hlc" if self.hlc else "arrival"
        self.journal = bool(cfg.get("conflict_journal"))
        self.soft_delete = cfg.get("soft_delete_column")

    def has_column(self, column):
        return not self.typed or column in self.columns

    def bucket_of(self, data):
        return data.get(self.bucket) if self.bucket is not None else None


class Store:
    """The server's tables on one connection, inside the request's transaction."""

    def __init__(self, db):
        self.db = db

    def one(self, sql, args=()):
        return self.db.execute(sql, args).fetchone()

    def meta(self, key, default=0):
        row = self.one("SELECT value FROM kz_meta WHERE key = ?", (key,))
        return default if row is None else row[0]

    def set_meta(self, key, value):
        self.db.execute("INSERT INTO kz_meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                        (key, value))

    def config(self):
        server = json.loads(self.meta("config", None) or canon(DEFAULT_CONFIG))
        tables = {name: Table(name, cfg) for name, cfg in server["tables"].items()}
        return tables, server.get("min_schema_version", 1), server.get("max_pull_scan") or DEFAULT_SCAN_CAP

    def now(self):
        return clock_text(self.meta("clock_step", None))

    def allocate(self):
        seq = self.meta("next_seq", 1)
        if seq >= INT64[1]:
            raise sqlite3.OperationalError(f"the global sequence is exhausted at {seq}")
        self.set_meta("next_seq", seq + 1)
        return seq

    def committed(self, seq):
        if seq > self.meta("high_water"):
            self.set_meta("high_water", seq)

    def row(self, table, pk):
        found = self.one("SELECT seq, data FROM kz_rows WHERE tbl = ? AND pk = ?", (table, pk))
        return None if found is None else {"pk": pk, "seq": found[0], "data": json.loads(found[1])}

    def cells(self, table, pk):
        rows = self.db.execute("SELECT col, writer, hlc FROM kz_cells WHERE tbl = ? AND pk = ?", (table, pk))
        return {col: (writer, hlc) for col, writer, hlc in rows}

    def tombstone(self, table, seq, pk, at, bucket, actor):
        self.db.execute("INSERT INTO kz_tombstones(seq, tbl, pk, deleted_at, bucket, actor) VALUES(?, ?, ?, ?, ?, ?)",
                        (seq, table, pk, at, canon(bucket), actor))
        self.committed(seq)

    def upsert(self, table, pk, columns, previous, writer, hlc, at):
        """Writes columns over the row (RowWriter): a bucket move-out leaves a tombstone for the old value."""
        data = dict(previous["data"]) if previous else {}
        data.update(columns)
        if previous and table.bucket is not None and table.bucket in previous["data"] \
                and not same(data.get(table.bucket), previous["data"][table.bucket]):
            self.tombstone(table.name, self.allocate(), pk, at, previous["data"][table.bucket], writer)
        seq = self.allocate()
        self.db.execute("INSERT INTO kz_rows(tbl, pk, seq, data) VALUES(?, ?, ?, ?) ON CONFLICT(tbl, pk) "
                        "DO UPDATE SET seq = excluded.seq, data = excluded.data", (table.name, pk, seq, canon(data)))
        for column in columns:
            self.db.execute("INSERT OR REPLACE INTO kz_cells(tbl, pk, col, seq, writer, hlc) VALUES(?, ?, ?, ?, ?, ?)",
                            (table.name, pk, column, seq, writer, hlc))
        self.committed(seq)
        return {"pk": pk, "seq": seq, "data": data}

    def delete(self, table, row, writer, at):
        seq = self.allocate()
        self.db.execute("DELETE FROM kz_rows WHERE tbl = ? AND pk = ?", (table.name, row["pk"]))
        self.db.execute("DELETE FROM kz_cells WHERE tbl = ? AND pk = ?", (table.name, row["pk"]))
        self.tombstone(table.name, seq, row["pk"], at, table.bucket_of(row["data"]), writer)

    def has_grant(self, user, client, table, bucket):
        return self.one("SELECT 1 FROM kz_grants WHERE user_id = ? AND client_id = ? AND tbl = ? AND bucket = ?",
                        (user, client, table, canon(bucket))) is not None


class Caller:
    def __init__(self, user, client):
        self.user, self.client = user, client

    def can_see(self, data, table):
        """The read policy: the row's bucket column names the user."""
        return table.bucket is None or data.get(table.bucket, MISSING) == self.user and isinstance(data[table.bucket], str)

    def render(self, row, table):
        return row["data"] if row is not None and self.can_see(row["data"], table) else None


class RPCError(Exception):
    """A SQL-level refusal: a PostgREST error reply with its HTTP status (42P01, KZL01, KZP01...)."""

    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code = status, code


# ---------------------------------------------------------------- pull

def signal_page(kind, cursor):
    return {"cursor": cursor, "has_more": False, "rows": [], "signal": {"type": kind}, "tombstones": []}


def pull(store, body, user, session):
    req = parse_pull(body)
    tables, min_version, scan_cap = store.config()
    if req["version"] < min_version:
        return signal_page("RESET_REQUIRED", req["text"])
    buckets = {}
    for name, params in req["buckets"]:
        table = tables.get(name)
        if table is None:
            raise RPCError(404, "42P01", f'relation "{name}" is not a synced table')
        if table.bucket is not None and table.bucket not in params:
            raise RPCError(400, "KZL01", f'table "{name}" is bucketed by {table.bucket}: a pull must name it')
        buckets.setdefault(name, []).append(params)
    start, position, holes = req["cursor"]
    if not all(in_range(n, INT64) for n in [start, position] + holes):
        raise RPCError(400, "22003", f"cursor {req['text']} is out of range")
    if start != 0 and start < store.meta("reap_horizon"):
        return signal_page("CHECKPOINT_EXPIRED", req["text"])
    client = req["client"] or session
    if client is None:
        raise RPCError(400, "22023", "no client id: the body names no client_id and the JWT has no session_id claim")
    caller = Caller(user, client)
    high = max(position, store.meta("high_water"))
    pending = {seq for (seq,) in store.db.execute("SELECT seq FROM kz_pending")}
    entries, cursor, has_more, covered = scan(store, caller, tables, buckets, start, position, holes, high, pending,
                                              min(req["limit"] or DEFAULT_LIMIT, scan_cap), scan_cap)
    rows = [{"pk": e[2], "row": json.loads(e[4]), "seq": str(e[3]), "table": e[1]} for e in entries if e[0] == 0]
    tombstones = [{"deleted_at": e[5], "pk": e[2], "seq": str(e[3]), "table": e[1]} for e in entries if e[0] == 1]
    page = {"cursor": cursor, "has_more": has_more, "rows": rows, "signal": None, "tombstones": tombstones}
    conflicts = journal(store, tables, buckets, caller, position, covered)
    if conflicts:
        page["conflicts"] = conflicts
    return page


def scan(store, caller, tables, buckets, start, position, holes, high, pending, limit, cap):
    """One page of the (seq, table, pk) stream after the cursor (PageScanner): deliverable entries up
    to the limit, at most `cap` candidates examined (hidden ones too), and the cursor that follows."""
    names = sorted(buckets)
    entries, examined, last_examined, stopped = [], 0, None, False
    if names:
        where = (f"tbl IN ({','.join('?' * len(names))}) AND seq <= ? AND (seq > ?"
                 + (f" OR seq IN ({','.join('?' * len(holes))})" if holes else "") + ")")
        args = [*names, high, position, *holes]
        candidates = store.db.execute(
            f"SELECT 0, tbl, pk, seq, data, NULL, NULL FROM kz_rows WHERE {where} UNION ALL "
            f"SELECT 1, tbl, pk, seq, NULL, deleted_at, bucket FROM kz_tombstones WHERE {where} "
            f"ORDER BY 4, 2, 3 LIMIT ?", args + args + [cap + 1]).fetchall()
        for entry in candidates:
            if examined >= cap:
                stopped = True
                break
            deliverable = is_deliverable(store, caller, tables, buckets, entry)
            if deliverable and len(entries) == limit:
                stopped = True
                break
            examined, last_examined = examined + 1, entry[3]
            if deliverable:
                entries.append(entry)
                if entry[0] == 0:
                    bucket = tables[entry[1]].bucket_of(json.loads(entry[4]))
                    store.db.execute("INSERT OR IGNORE INTO kz_grants(user_id, client_id, tbl, bucket) VALUES(?, ?, ?, ?)",
                                     (caller.user, caller.client, entry[1], canon(bucket)))
    if stopped:
        last = entries[-1][3] if len(entries) == limit else last_examined
        reached = max(position, last if last is not None else position)
    else:
        reached = high
    still_open = {seq for seq in pending if (seq > position or seq in holes) and seq < reached}
    still_open |= {h for h in holes if stopped and h < reached and h > (last_examined or 0)}
    suffix = ("~" + ".".join(map(str, sorted(still_open)))) if still_open else ""
    if stopped:
        return entries, f"{start}:{reached}{suffix}", True, reached
    return entries, f"{reached}{suffix}", bool(still_open), reached


def row_matches(caller, table, params_list, data):
    return caller.can_see(data, table) and any(all(same(data.get(k, MISSING), v) for k, v in p.items()) for p in params_list)


def is_deliverable(store, caller, tables, buckets, entry):
    kind, name, pk = entry[0], entry[1], entry[2]
    table = tables.get(name)
    if table is None or name not in buckets:
        return False
    if kind == 0:
        return row_matches(caller, table, buckets[name], json.loads(entry[4]))
    snapshot = json.loads(entry[6])
    if table.bucket is not None and not any(same(p.get(table.bucket, MISSING), snapshot) for p in buckets[name]):
        return False
    if not store.has_grant(caller.user, caller.client, name, snapshot):
        return False
    live = store.row(name, pk)
    return not (live and row_matches(caller, table, buckets[name], live["data"]))


def journal(store, tables, buckets, caller, after, up_to):
    """Conflict-journal entries whose winning write this page covers, in the caller's buckets."""
    found = []
    for name, params in buckets.items():
        table = tables[name]
        if not table.journal:
            continue
        for pk, col, mode, loser, winner, seq, bucket in store.db.execute(
                "SELECT pk, col, mode, loser, winner_mutation, winner_seq, bucket FROM kz_conflicts "
                "WHERE tbl = ? AND winner_seq > ? AND winner_seq <= ? ORDER BY winner_seq, pk, col", (name, after, up_to)):
            bucket = json.loads(bucket)
            if table.bucket is not None and not (bucket == caller.user and isinstance(bucket, str)
                                                 and any(same(p.get(table.bucket, MISSING), bucket) for p in params)):
                continue
            found.append((seq, name, pk, col, {"column_name": col, "conflict_mode": mode, "loser_value": json.loads(loser),
                                               "pk": pk, "table": name, "winner_mutation_id": winner, "winner_seq": str(seq)}))
    return [entry[-1] for entry in sorted(found, key=lambda e: e[:4])]


# ---------------------------------------------------------------- push

def push(store, body, user, session):
    req = parse_push(body)
    tables, min_version, _ = store.config()
    if req["version"] < min_version:
        return {"signal": {"type": "RESET_REQUIRED"}}
    for m in req["mutations"]:
        if m["table"] not in tables:
            raise RPCError(404, "42P01", f'relation "{m["table"]}" is not a synced table')
        if tables[m["table"]].pull_only:
            raise RPCError(400, "KZP01", f'table "{m["table"]}" is pull-only')
    if req["atomic"] and len(req["mutations"]) > MAX_ATOMIC_BATCH:
        raise RPCError(400, "KZP02", f"an atomic batch of {len(req['mutations'])} exceeds max_batch_size {MAX_ATOMIC_BATCH}")
    ids = set()
    for m in req["mutations"]:
        if m["id"] in ids:
            raise RPCError(400, "22023", f"mutation_id {m['id']} appears twice in one batch; each mutation is applied exactly once")
        ids.add(m["id"])
    client = req["client"] or session
    if client is None:
        raise RPCError(400, "22023", "no client id: the body names no client_id and the JWT has no session_id claim")
    applier = Applier(store, tables, Caller(user, client), store.now())
    db, verdicts, applied = store.db, [], []
    if req["atomic"]:
        db.execute("SAVEPOINT batch")
        for m in req["mutations"]:
            outcome = applier.replay(m) or applier.apply(m)
            if outcome[0] == "rejected":
                db.execute("ROLLBACK TO batch")
                db.execute("RELEASE batch")
                return {"batch": {"offender_mutation_id": m["id"], "outcome": "aborted", "reason": outcome[1], "server_row": outcome[2]}}
            applied.append((m, outcome))
            verdicts.append(verdict(m, outcome))
        for m, outcome in applied:
            if applier.ledger(m["id"]) is None:
                applier.record(m, outcome)
        db.execute("RELEASE batch")
        return {"verdicts": verdicts}
    for m in req["mutations"]:
        outcome = applier.replay(m)
        if outcome is None:
            db.execute("SAVEPOINT mutation")
            outcome = applier.apply(m)
            if outcome[0] == "rejected":
                db.execute("ROLLBACK TO mutation")
            db.execute("RELEASE mutation")
            applier.record(m, outcome)
        verdicts.append(verdict(m, outcome))
    return {"verdicts": verdicts}


def verdict(m, outcome):
    kind, reason, row = outcome
    if kind == "applied":
        return {"mutation_id": m["id"], "verdict": "applied", **({"server_row": row} if row is not None else {})}
    return {"mutation_id": m["id"], "reason": reason, "server_row": row, "verdict": "rejected"}


def transformed(t, current, ctype):
    """A transform's new column value (D-field-transforms), or None when it cannot apply (CONSTRAINT)."""
    if t["op"] == "increment":
        if ctype is not None and ctype not in ("integer", "bigint"):
            return None
        delta = int64_of(t["by"])
        base = 0 if current in (None, MISSING) else current if is_int(current) and in_range(current, INT64) else None
        if delta is None or base is None or not in_range(base + delta, INT64):
            return None
        result = base + delta
        return result if ctype != "integer" or in_range(result, INT32) else None
    if ctype is not None and ctype != "text[]":
        return None
    if ctype == "text[]" and not all(isinstance(v, str) for v in t["values"]):
        return None
    if current in (None, MISSING):
        array = []
    elif isinstance(current, list):
        array = list(current)
    else:
        return None
    if t["op"] == "arrayUnion":
        for v in t["values"]:
            if not any(same(v, x) for x in array):
                array.append(v)
        return array
    return [x for x in array if not any(same(x, v) for v in t["values"])]


class Applier:
    """One push's mutations (MutationApplier): visibility, column privileges, preconditions,
    conflict resolution (arrival or hlc), transforms, types, then the write; plus the ledger."""

    def __init__(self, store, tables, caller, now):
        self.store, self.tables, self.caller, self.now = store, tables, caller, now

    def ledger(self, mutation_id):
        return self.store.one("SELECT user_id, applied, reason, has_row, tbl, pk FROM kz_ledger WHERE mutation_id = ?",
                              (mutation_id,))

    def record(self, m, outcome):
        kind, reason, row = outcome
        self.store.db.execute("INSERT OR REPLACE INTO kz_ledger VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                              (m["id"], self.caller.user, self.caller.client, int(kind == "applied"), reason,
                               int(kind != "applied" or row is not None), m["table"], m["pk"]))

    def replay(self, m):
        """A repeated mutation id: the owner gets the recorded verdict with the row as it is now."""
        entry = self.ledger(m["id"])
        if entry is None:
            return None
        user, was_applied, reason, has_row, name, pk = entry
        if user != self.caller.user:
            return ("rejected", "RLS_DENIED", None)
        table = self.tables.get(name)
        row = self.caller.render(self.store.row(name, pk), table) if table else None
        if was_applied:
            return ("applied", None, row if has_row else None)
        return ("rejected", reason or "RLS_DENIED", row)

    def apply(self, m):
        table, caller, store = self.tables[m["table"]], self.caller, self.store
        current = store.row(table.name, m["pk"])
        parts = key_components(m["pk"], table.keys)
        if parts is None:
            return ("rejected", "CONSTRAINT", caller.render(current, table))
        if m["op"] == "insert":
            if current and not caller.can_see(current["data"], table):
                return ("rejected", "RLS_DENIED", None)
            return self.write(m, table, current, parts)
        if current is None:
            return self.absent(m, table)
        if not caller.can_see(current["data"], table):
            return ("rejected", "RLS_DENIED", None)
        if m["op"] == "update":
            return self.write(m, table, current, parts)
        if table.soft_delete is not None:
            return ("rejected", "RLS_DENIED", caller.render(current, table))
        failed = self.precondition(m, current, table)
        if failed:
            return failed
        store.delete(table, current, caller.client, self.now)
        return ("applied", None, None)

    def absent(self, m, table):
        """No live row: DELETE_WINS to a caller who saw the deleted row (or deleted it), else RLS_DENIED."""
        found = self.store.one("SELECT bucket, actor FROM kz_tombstones WHERE tbl = ? AND pk = ? ORDER BY seq DESC LIMIT 1",
                               (table.name, m["pk"]))
        if found is None:
            return ("rejected", "RLS_DENIED", None)
        bucket, actor = json.loads(found[0]), found[1]
        if actor == self.caller.client or table.bucket is None:
            return ("rejected", "DELETE_WINS", None)
        if isinstance(bucket, str) and bucket == self.caller.user \
                and self.store.has_grant(self.caller.user, self.caller.client, table.name, bucket):
            return ("rejected", "DELETE_WINS", None)
        return ("rejected", "RLS_DENIED", None)

    def precondition(self, m, current, table):
        data = current["data"] if current else {}
        for key, value in (m["precondition"] or {}).items():
            if not same(data.get(key), value):
                return ("rejected", "PRECONDITION", self.caller.render(current, table))
        return None

    def write(self, m, table, current, parts):
        caller, store = self.caller, self.store
        rendered = caller.render(current, table)
        columns = m["columns"]
        for column in list(columns) + [c for c, _ in m["transforms"]]:
            if not table.has_column(column) or column in table.read_only or (column in table.keys and m["op"] == "update"):
                return ("rejected", "COLUMN_DENIED", rendered)
        failed = self.precondition(m, current, table)
        if failed:
            return failed
        if any(c in table.columns and not accepts(table.columns[c], v) for c, v in columns.items()):
            return ("rejected", "CONSTRAINT", rendered)
        if m["op"] == "insert":
            for index, key in enumerate(table.keys):
                if key in columns and component_text(columns[key]) != parts[index]:
                    return ("rejected", "CONSTRAINT", rendered)
        assigned, clock = dict(columns), None
        if table.hlc:
            incoming = parse_hlc(m["hlc"]) if m["hlc"] else None
            incoming = incoming or (self.now, 0, caller.client)
            if incoming[0] > self.now:
                incoming = (self.now,) + incoming[1:]
            clock = incoming
            if current:
                cells = store.cells(table.name, current["pk"])
                def wins(column):
                    existing = parse_hlc(cells[column][1]) if column in cells and cells[column][1] else None
                    return existing is None or existing < incoming
                assigned = {c: v for c, v in columns.items() if wins(c)}
                if not assigned and columns and not m["transforms"]:
                    return ("rejected", "SUPERSEDED", rendered)
        changes = dict(assigned)
        for column, t in m["transforms"]:
            value = transformed(t, current["data"].get(column, MISSING) if current else MISSING, table.columns.get(column))
            if value is None:
                return ("rejected", "CONSTRAINT", rendered)
            changes[column] = value
        merged = dict(current["data"] if current else {}, **changes)
        if not caller.can_see(merged, table):
            return ("rejected", "RLS_DENIED", rendered)
        if any((m["op"] == "insert" or c in changes) and merged.get(c) is None for c in table.not_null):
            return ("rejected", "CONSTRAINT", rendered)
        previous_cells = store.cells(table.name, m["pk"]) if table.journal and current else {}
        hlc_text = f"{clock[0]}|{clock[1]}|{clock[2]}" if clock else None
        row = store.upsert(table, m["pk"], changes, current, caller.client, hlc_text, self.now)
        if table.journal and current:
            for column, value in assigned.items():
                loser = current["data"].get(column, MISSING)
                writer = previous_cells.get(column, (None,))[0]
                if loser is MISSING or same(loser, value) or writer is None or writer == caller.client:
                    continue
                store.db.execute("INSERT INTO kz_conflicts(tbl, pk, col, mode, loser, winner_mutation, winner_seq, bucket) "
                                 "VALUES(?, ?, ?, ?, ?, ?, ?, ?)", (table.name, current["pk"], column, table.mode, canon(loser),
                                                                    m["id"], row["seq"], canon(table.bucket_of(row["data"]))))
        return ("applied", None, caller.render(row, table) if m["transforms"] else None)


# ---------------------------------------------------------------- JWT and HTTP

class JWTError(Exception):
    pass


def b64url(text):
    if len(text) % 4 == 1 or not re.fullmatch(r"[A-Za-z0-9_-]*", text):
        return None
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    return raw if base64.urlsafe_b64encode(raw).rstrip(b"=").decode() == text else None


def jwt_identity(token, secret):
    """Verifies an HS256 JWT (signature, exp, nbf) and returns (sub, session_id or None)."""
    parts = token.split(".")
    if len(parts) != 3:
        raise JWTError(f"invalid JWT: expected three dot-separated parts, found {len(parts)}")
    raw = [b64url(p) for p in parts]
    if None in raw:
        raise JWTError("invalid JWT: a part is not base64url")
    try:
        header, claims = parse_json(raw[0]), parse_json(raw[1])
    except ValueError as error:
        raise JWTError(f"invalid JWT: a part is not JSON: {error}")
    if not isinstance(header, dict) or not isinstance(claims, dict) or header.dup or claims.dup:
        raise JWTError("invalid JWT: header and payload are JSON objects without repeated keys")
    if header.get("alg") != "HS256":
        raise JWTError(f"invalid JWT: alg is {canon(header.get('alg'))}, expected \"HS256\"")
    if "typ" in header and not (isinstance(header["typ"], str) and header["typ"].upper() == "JWT"):
        raise JWTError("invalid JWT: typ is not JWT")
    if "crit" in header:
        raise JWTError("invalid JWT: crit header parameters are not supported")
    mac = hmac.new(secret.encode(), f"{parts[0]}.{parts[1]}".encode(), hashlib.sha256).digest()
    if not hmac.compare_digest(mac, raw[2]):
        raise JWTError("invalid JWT: signature does not match")
    now = time.time()
    for claim in ("exp", "nbf"):
        if claim in claims:
            value = claims[claim]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise JWTError(f"invalid JWT: {claim} is not a finite number")
            if claim == "exp" and now >= value:
                raise JWTError("JWT expired")
            if claim == "nbf" and now < value:
                raise JWTError("invalid JWT: JWT not valid yet")
    sub, session = claims.get("sub"), claims.get("session_id")
    if not isinstance(sub, str) or not sub:
        raise JWTError("invalid JWT: no sub claim")
    if session is not None and not isinstance(session, str):
        raise JWTError("invalid JWT: session_id is not a string")
    return sub, session


def error_body(code, message, details=None):
    return {"code": code, "details": details, "hint": None, "message": message}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "sqlite-sync-server"
    disable_nagle_algorithm = True  # headers and body go out in separate writes

    def log_message(self, *args):
        pass

    def __getattr__(self, name):  # every method reaches route(): 405 is the router's answer, not http.server's
        if name.startswith("do_"):
            return self.route
        raise AttributeError(name)

    def send_error(self, code, message=None, explain=None):
        self.close_connection = True
        self.reply(code, error_body(f"HTTP{code}", message or self.responses.get(code, ("",))[0]))

    def reply(self, status, body, headers=()):
        data = b"" if body is None else canon(body).encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if status != 204:
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if getattr(self, "command", None) != "HEAD":
            self.wfile.write(data)

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() != "chunked":
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))
        chunks = []
        while (size := int(self.rfile.readline().split(b";")[0].strip(), 16)) > 0:
            chunks.append(self.rfile.read(size))
            self.rfile.readline()
        while self.rfile.readline() not in (b"\r\n", b"\n", b""):  # trailers
            pass
        return b"".join(chunks)

    def route(self):
        if self.command == "OPTIONS" and self.path == "*":
            return self.reply(204, None, [("Allow", "GET, POST")])
        body = self.read_body()
        path = self.path.split("?", 1)[0]
        if not path.startswith(RPC_PREFIX):
            return self.reply(404, error_body("PGRST125", "Invalid path specified in request URL"))
        function = path[len(RPC_PREFIX):]
        if function not in ("pull", "push"):
            return self.reply(404, error_body("PGRST202", f"Could not find the function {PROFILE}.{function} in the schema cache"))
        if self.command != "POST":
            return self.reply(405, error_body("PGRST117", f"Unsupported HTTP method: {self.command}"), [("Allow", "POST")])
        status, answer, headers = self.rpc(function, body)
        self.reply(status, answer, headers)

    def rpc(self, function, body):
        options = self.server.options
        if options.apikey is not None and self.headers.get("apikey") != options.apikey:
            return 401, error_body("PGRST302", "No API key found in request or it does not match"), [("WWW-Authenticate", "Bearer")]
        authorization = self.headers.get_all("Authorization") or []
        if len(authorization) > 1:
            return 400, error_body("HTTP400", "more than one Authorization header"), []
        if not authorization:
            return 401, error_body("PGRST302", "Anonymous access is disabled"), [("WWW-Authenticate", "Bearer")]
        scheme, _, token = authorization[0].partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return self.unauthorized("Authorization is not a Bearer token")
        try:
            user, session = jwt_identity(token.strip(), options.jwt_secret)
        except JWTError as error:
            return self.unauthorized(str(error))
        profile = self.headers.get("Content-Profile")
        if profile is not None and profile != PROFILE:
            return 406, error_body("PGRST106", f"The schema must be one of the following: {PROFILE}"), []
        content_type = self.headers.get("Content-Type")
        if (content_type or "").split(";")[0].strip().lower() != "application/json":
            return 415, error_body("PGRST107", f"The Content-Type must be application/json, found {content_type or 'none'}"), []
        accept = self.headers.get("Accept")
        if accept is not None and not any(r.split(";")[0].strip().lower() in ("*/*", "application/*", "application/json")
                                          for r in accept.split(",")):
            return 406, error_body("PGRST107", f"None of these media types are available: {accept}"), []
        try:
            value = parse_json(body)
        except ValueError as error:
            return 400, error_body("PGRST102", "Empty or invalid json", str(error)), []
        if not isinstance(value, dict):
            return 400, error_body("PGRST102", f"The request body must be a JSON object, found {type_name(value)}"), []
        if value.dup is not None:
            return 400, error_body("PGRST102", f'The request body repeats the key "{value.dup}"'), []
        try:
            return 200, self.server.transaction(lambda store: (pull if function == "pull" else push)(store, value, user, session)), []
        except WireError as error:
            return 400, error_body(error.code, str(error)), []
        except RPCError as error:
            return error.status, error_body(error.code, str(error)), []
        except sqlite3.Error as error:
            return 500, error_body("XX000", f"sqlite-sync-server storage error: {error}"), []

    @staticmethod
    def unauthorized(message):
        return 401, error_body("PGRST301", message), [("WWW-Authenticate", f'Bearer error="invalid_token", error_description="{message}"')]


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, options):
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.options, self.local = options, threading.local()
        super().__init__(address, Handler)

    def connection(self):
        if getattr(self.local, "db", None) is None:
            self.local.db = sqlite3.connect(self.options.db, timeout=30, isolation_level=None, check_same_thread=False)
            self.local.db.execute("PRAGMA synchronous = NORMAL")  # with WAL: durable across a crash of this process
        return self.local.db

    def transaction(self, work):
        db = self.connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            result = work(Store(db))
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return result


def listen_address(text):
    host, _, port = text.rpartition(":")
    host = host.strip("[]")
    address = ipaddress.ip_address("127.0.0.1" if host == "localhost" else host)
    if not address.is_loopback:
        raise argparse.ArgumentTypeError(f"{text}: this server binds a loopback address only")
    return str(address), int(port)


def main():
    parser = argparse.ArgumentParser(description="A small KizunaSync server over SQLite (pull and push over PostgREST).")
    parser.add_argument("--db", required=True, help="the SQLite database file (created when absent)")
    parser.add_argument("--jwt-secret", required=True, help="the HS256 secret JWTs are verified with")
    parser.add_argument("--listen", type=listen_address, default="127.0.0.1:0", help="loopback host:port (default 127.0.0.1:0)")
    parser.add_argument("--apikey", help="when given, the apikey header must equal it")
    options = parser.parse_args()
    db = sqlite3.connect(options.db, timeout=30, isolation_level=None)  # timeout: the busy timeout, in seconds
    db.execute("PRAGMA journal_mode = WAL")
    db.executescript(SCHEMA)
    db.execute("INSERT OR IGNORE INTO kz_meta(key, value) VALUES('config', ?)", (canon(DEFAULT_CONFIG),))
    db.close()
    server = Server(options.listen, options)
    stop = threading.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: stop.set())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host = server.server_address[0]
    print(f"listening on http://{'[' + host + ']' if ':' in host else host}:{server.server_address[1]}", flush=True)
    while not stop.wait(0.5):
        pass
    server.shutdown()
    server.server_close()


if __name__ == "__main__":
    main()
