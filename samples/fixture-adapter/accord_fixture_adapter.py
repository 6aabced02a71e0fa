#!/usr/bin/env python3
"""Accord fixture adapter: a sample to copy next to your KizunaSync server (Python 3, stdlib only).

    accord_fixture_adapter.py --db PATH --upstream http://127.0.0.1:PORT [--listen 127.0.0.1:0]
    accord run --server http://127.0.0.1:<its port> --jwt-secret <your JWT secret> CORPUS --jobs 1

Accord's server lane drives a server through the RPCs every client calls and a small fixture
endpoint that puts the server into the state a case needs (docs/server-contract.md, section 2).
This program adds that endpoint in front of your server, acting DIRECTLY ON THE SERVER'S OWN
DATABASE, and forwards every other request to --upstream as it came (method, path and query,
headers, body) and the answer back as it came (status, headers, body); only Host is rewritten to
the upstream's and hop-by-hop headers (Connection, Transfer-Encoding, Expect...) are dropped.
It binds loopback only and answers only a loopback Host and Origin, and a POST only with
`Content-Type: application/json`, so no web page can drive it (else 403 ACF04).

  GET  /accord/fixtures/capabilities  -> 200 {"clock": ..., "seqs": ..., "numbering": ...}
       What the server can steer. Declare it honestly: what it cannot steer is then reported not
       applicable, not failed. clock: "logical" when server-stamped times (deleted_at) follow the
       step clock, "wall" when it stamps its own time. seqs: "at-write" when a held change takes
       its seq at once (a hole opens below later commits), "at-commit" when seqs are drawn at
       commit. numbering: "dense" only if each write takes exactly the next seq, else "gapped".
  POST /accord/fixtures/seed    {"server": {...}, "next_seq"?: "5", "history"?: [change...]}
       Reset to an empty state with the case's configuration (its context.server: tables with
       bucket_column, conflict_mode, key_columns...), first seq and prior history (changes, no
       txn). -> 200 {"base": "<last seq before the case>", "history": ["<seq taken>" | null...]}
       (a wall-clock server adds "seeded_at"), or 204 when it numbers exactly as asked.
  POST /accord/fixtures/step    {"n": 3}  -> 204: times become 2026-01-01T00:00:03.000Z.
  POST /accord/fixtures/change  {"op": "upsert"|"delete"|"reap", "table", "pk", "columns",
       "actor", "hlc"?, "txn"?} -> 204: another actor's write, bypassing bucket visibility (a
       delete leaves a tombstone; a reap drops all so far and raises the reap horizon). With
       "txn" it is held in that open transaction: it takes its seq now, invisible until commit.
  POST /accord/fixtures/commit  {"txn": "t1"}  -> 204: commits a held transaction.

Bodies are strict (an unknown key, a wrong type or a bad value is 400 PGRST102, `details` naming
the JSON pointer). Failures map as in the contract: Refused -> 409 ACF01, Unsupported (e.g. no
held transactions) -> 501 ACF02, Unreachable -> 503 PGRST000, anything else -> 500 ACF03.

WHERE YOU PLUG IN YOUR DATABASE: all that is server-specific is `class Database` below; this one
drives Tests/Fixtures/sqlite-sync-server.py's SQLite file. For your server rewrite its methods:
`seed` empties your synced tables, restarts your seq counter, stores the case's table settings
and applies the history; `set_clock` stores the step where your server reads its time; `apply`
writes as your server's own writes do (so seqs, tombstones and column clocks are stamped as for
any write); `commit` ends a held transaction (in PostgreSQL: BEGIN and the write on a connection
of its own, kept in a dict by name; COMMIT there). The code below the second marker is generic.
"""
import argparse, contextlib, http.client, ipaddress, json, re, signal, socket, sqlite3, threading, urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Refused(Exception): pass  # 409 ACF01: an unknown table or txn, a delete of an absent row...
class Unsupported(Exception): pass  # 501 ACF02: e.g. a server that cannot hold a transaction open
class Unreachable(Exception): pass  # 503 PGRST000: the database cannot be reached


# ================================================================================================
# Database: THE PART YOU REWRITE for your server's schema.
# This one writes sqlite-sync-server.py's tables, stamping seqs, tombstones and column clocks as
# that server's own writes do. SQLite has one writer at a time, so a held transaction cannot stay
# open on a connection; it is a row in kz_pending instead: the change takes its seq from the
# server's counter at once, and the server's pulls treat pending seqs as in-flight writes (holes
# in the cursor) until commit. Hence "seqs": "at-write"; the clock is the step clock ("logical");
# every write takes exactly the next seq and a seed restarts the counter ("dense").
# ================================================================================================
class Database:
    CAPABILITIES = {"clock": "logical", "seqs": "at-write", "numbering": "dense"}
    TABLES = ["kz_meta", "kz_rows", "kz_cells", "kz_tombstones", "kz_ledger", "kz_grants", "kz_conflicts", "kz_pending"]

    def __init__(self, path):
        self.path, self.local = path, threading.local()

    def capabilities(self):
        return dict(self.CAPABILITIES)

    def seed(self, server, next_seq, history):
        if next_seq > 2**63 - 1:
            raise Refused(f"next seq {next_seq} is out of range")
        with self.transaction() as db:
            for table in self.TABLES:
                db.execute(f"DELETE FROM {table}")
            for key, value in [("next_seq", next_seq), ("high_water", 0), ("reap_horizon", 0), ("clock_step", 0),
                               ("config", json.dumps(server))]:
                set_meta(db, key, value)
            stamped = []
            for change in history:
                before = meta(db, "next_seq")
                self.write(db, change, self.now(db))
                stamped.append(str(meta(db, "next_seq") - 1) if meta(db, "next_seq") > before else None)
        return {"base": str(next_seq - 1), "history": stamped}

    def set_clock(self, n):
        with self.transaction() as db:
            set_meta(db, "clock_step", n)

    def apply(self, change, txn=None):
        with self.transaction() as db:
            if txn is None:
                self.write(db, change, self.now(db))
            elif change["op"] == "reap":
                raise Refused(f"a reap cannot be held in transaction {txn}")
            else:
                self.bucket_column(db, change["table"])  # refuse an unknown table now, not at commit
                db.execute("INSERT INTO kz_pending(txn, seq, at, change) VALUES(?, ?, ?, ?)",
                           (txn, self.allocate(db), self.now(db), json.dumps(change)))

    def commit(self, txn):
        with self.transaction() as db:
            held = db.execute("SELECT seq, at, change FROM kz_pending WHERE txn = ? ORDER BY id", (txn,)).fetchall()
            if not held:
                raise Refused(f"no open transaction {txn}")
            for seq, at, change in held:  # they take effect with the seqs and times they stamped
                self.write(db, json.loads(change), at, seq)
            db.execute("DELETE FROM kz_pending WHERE txn = ?", (txn,))

    # -- the server's storage conventions (as sqlite-sync-server.py's Store.upsert / delete) --

    @contextlib.contextmanager
    def transaction(self):
        """One BEGIN IMMEDIATE transaction on this thread's connection; it waits while the server writes."""
        if getattr(self.local, "db", None) is None:
            try:
                self.local.db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            except sqlite3.Error as error:
                raise Unreachable(f"cannot open {self.path}: {error}")
        db = self.local.db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def now(self, db):
        step = max(meta(db, "clock_step"), 0)
        return "2026-01-01T%02d:%02d:%02d.000Z" % (step // 3600, step // 60 % 60, step % 60)

    def allocate(self, db):
        seq = meta(db, "next_seq", 1)
        set_meta(db, "next_seq", seq + 1)
        return seq

    def bucket_column(self, db, table):
        tables = json.loads(meta(db, "config", "{}")).get("tables", {})
        if table not in tables:
            raise Refused(f'table "{table}" is not configured')
        return tables[table]["bucket_column"]

    def tombstone(self, db, table, pk, seq, at, bucket, actor):
        db.execute("INSERT INTO kz_tombstones(seq, tbl, pk, deleted_at, bucket, actor) VALUES(?, ?, ?, ?, ?, ?)",
                   (seq, table, pk, at, canon(bucket), actor))
        set_meta(db, "high_water", max(seq, meta(db, "high_water")))

    def write(self, db, change, at, seq=None):
        """Applies one change now; `seq` is the one a held change stamped earlier."""
        if change["op"] == "reap":  # every tombstone goes; the reap horizon rises to the highest reaped seq
            highest = db.execute("SELECT MAX(seq) FROM kz_tombstones").fetchone()[0] or 0
            set_meta(db, "reap_horizon", max(highest, meta(db, "reap_horizon")))
            db.execute("DELETE FROM kz_tombstones")
            return
        table, pk, actor = change["table"], change["pk"], change["actor"]
        bucket = self.bucket_column(db, table)
        found = db.execute("SELECT data FROM kz_rows WHERE tbl = ? AND pk = ?", (table, pk)).fetchone()
        old = json.loads(found[0]) if found else None
        if change["op"] == "delete":
            if old is None:
                raise Refused(f"delete of {table}/{pk}: no live row")
            db.execute("DELETE FROM kz_rows WHERE tbl = ? AND pk = ?", (table, pk))
            db.execute("DELETE FROM kz_cells WHERE tbl = ? AND pk = ?", (table, pk))
            self.tombstone(db, table, pk, seq or self.allocate(db), at, old.get(bucket), actor)
            return
        new = dict(old or {}, **change["columns"])
        if old and bucket in old and canon(new[bucket]) != canon(old[bucket]):  # a move-out: the old bucket's tombstone
            self.tombstone(db, table, pk, self.allocate(db), at, old[bucket], actor)
        seq = seq or self.allocate(db)
        db.execute("INSERT INTO kz_rows(tbl, pk, seq, data) VALUES(?, ?, ?, ?) ON CONFLICT(tbl, pk) "
                   "DO UPDATE SET seq = excluded.seq, data = excluded.data", (table, pk, seq, canon(new)))
        for column in change["columns"]:  # column clocks: who wrote each column last, with which hlc
            db.execute("INSERT OR REPLACE INTO kz_cells(tbl, pk, col, seq, writer, hlc) VALUES(?, ?, ?, ?, ?, ?)",
                       (table, pk, column, seq, actor, change.get("hlc")))
        set_meta(db, "high_water", max(seq, meta(db, "high_water")))


def meta(db, key, default=0):
    row = db.execute("SELECT value FROM kz_meta WHERE key = ?", (key,)).fetchone()
    return default if row is None or row[0] is None else row[0]


def set_meta(db, key, value):
    db.execute("INSERT INTO kz_meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))


def canon(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# ================================================================================================
# Generic part: the fixture contract over HTTP and the forwarding proxy. No need to edit it.
# ================================================================================================
class BodyError(Exception):
    def __init__(self, pointer, detail):
        super().__init__(f"JSON at {pointer or '/'}: {detail}")


class JObj(dict):
    dup = None  # the object's first repeated key, if any


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


def kind(value):
    return {bool: "boolean", int: "number", float: "number", str: "string", list: "array", type(None): "null"}.get(type(value), "object")


class Reader:
    """Reads one JSON object strictly: each key at most once, of the right type, nothing unknown."""
    TYPES = {"string": lambda v: isinstance(v, str), "integer": lambda v: type(v) is int and abs(v) < 2**63,
             "boolean": lambda v: isinstance(v, bool), "array": lambda v: isinstance(v, list), "object": lambda v: isinstance(v, dict)}

    def __init__(self, value, at=""):
        if not isinstance(value, dict):
            raise BodyError(at, f"expected an object, found {kind(value)}")
        if value.dup:
            raise BodyError(f"{at}/{value.dup}", f'duplicate key "{value.dup}"')
        self.obj, self.at, self.seen = value, at, set()

    def get(self, key, what, required=True, null_ok=False):
        if key not in self.obj:
            if required:
                raise BodyError(self.at, f'missing required key "{key}"')
            return None
        self.seen.add(key)
        value = self.obj[key]
        if not (self.TYPES[what](value) or (value is None and null_ok)):
            raise BodyError(f"{self.at}/{key}", f"expected {'an' if what[0] in 'aio' else 'a'} {what}, found {kind(value)}")
        return value

    def check(self, ok, key, detail):
        if not ok:
            raise BodyError(f"{self.at}/{key}", detail)

    def finish(self):
        for key in self.obj:
            self.check(key in self.seen, key, f'unknown key "{key}"')


def read_server(value):
    """`server`: a transcript's context.server, exactly as the corpus writes it."""
    r = Reader(value, "/server")
    for key in ("min_schema_version", "tombstone_ttl_days"):
        r.get(key, "integer")
    cap = r.get("max_pull_scan", "integer", required=False)
    r.check(cap is None or cap >= 1, "max_pull_scan", "max_pull_scan is at least 1")
    for name, table in r.get("tables", "object").items():
        t = Reader(table, f"/server/tables/{name}")
        mode = t.get("conflict_mode", "string", required=False)
        t.check(mode in (None, "arrival", "hlc"), "conflict_mode", f'expected arrival|hlc, found "{mode}"')
        t.get("conflict_journal", "boolean", required=False)
        t.get("bucket_column", "string")
        keys = t.get("key_columns", "array", required=False) or []
        t.check(all(isinstance(k, str) for k in keys), "key_columns", "expected an array of strings")
        t.get("soft_delete_column", "string", required=False)
        t.finish()
    r.finish()
    return value


def read_change(value, at="", default_actor=None, allow_txn=True):
    """A change {op, table, pk, columns, actor, hlc?, txn?}: returns (change, txn)."""
    r = Reader(value, at)
    change = {"op": r.get("op", "string")}
    r.check(change["op"] in ("upsert", "delete", "reap"), "op", f'expected upsert|delete|reap, found "{change["op"]}"')
    if change["op"] != "reap":
        change["table"], change["pk"] = r.get("table", "string"), r.get("pk", "string")
        r.check(re.fullmatch(r"[a-z][a-z0-9_]*", change["table"]), "table", f'"{change["table"]}" is not a table name ([a-z][a-z0-9_]*)')
        r.check(change["pk"], "pk", "a row key is never empty")
        if change["op"] == "upsert":
            change["columns"] = r.get("columns", "object")
            for column, v in change["columns"].items():  # scalars, or arrays of non-null scalars
                ok = v is None or all(isinstance(x, (str, bool, int)) for x in (v if isinstance(v, list) else [v]))
                r.check(ok, f"columns/{column}", "a column value is a scalar or an array of scalars (integers only)")
        change["actor"] = r.get("actor", "string", required=default_actor is None) or default_actor
        if change["op"] == "upsert":
            change["hlc"] = r.get("hlc", "string", required=False)
    txn = r.get("txn", "string", required=False, null_ok=True) if allow_txn else None
    r.check(txn != "", "txn", "txn is never empty")
    r.finish()
    return change, txn


def read_fixture(operation, value):
    """A fixture call's body, read strictly: the arguments of the Database method it calls."""
    if operation == "change":
        return read_change(value)
    r = Reader(value)
    if operation == "seed":
        server = read_server(r.get("server", "object"))
        next_seq = r.get("next_seq", "string", required=False) or "1"
        r.check(re.fullmatch(r"[1-9][0-9]*", next_seq), "next_seq", f'next_seq is a positive decimal string, found "{next_seq}"')
        history = [read_change(c, f"/history/{i}", "accord-fixture", allow_txn=False)[0]
                   for i, c in enumerate(r.get("history", "array", required=False) or [])]
        args = (server, int(next_seq), history)
    elif operation == "step":
        args = (r.get("n", "integer"),)
        r.check(args[0] >= 0, "n", f"n is at least 0, found {args[0]}")
    else:
        args = (r.get("txn", "string"),)
        r.check(args[0], "txn", "txn is never empty")
    r.finish()
    return args


def is_loopback(authority):
    """Whether a Host (or an Origin's host[:port]) is this machine: 127.0.0.0/8, localhost or [::1]."""
    m = re.fullmatch(r"(\[[^\]]*\]|[^:\[\]]*)(:[0-9]{1,5})?", authority.lower())
    host = m.group(1).rstrip(".") if m else ""
    try:
        return host in ("localhost", "[::1]", "[0:0:0:0:0:0:0:1]") or ipaddress.IPv4Address(host).is_loopback
    except ValueError:
        return False


def access_refusal(headers, method):
    """Why the endpoint must not act on this request (a web page could send it), or None."""
    hosts, origins, types = (headers.get_all(name) or [] for name in ("Host", "Origin", "Content-Type"))
    if len(hosts) != 1 or not is_loopback(hosts[0]):
        return f"the fixture endpoint answers only a loopback Host (127.0.0.1, localhost or [::1]), found {hosts}"
    if len(origins) > 1 or origins and not re.fullmatch(r"https?://[^/@]+", origins[0].lower()) \
            or origins and not is_loopback(origins[0].split("://", 1)[1]):
        return f"the fixture endpoint answers no cross-origin request, found Origin {origins}"
    if method == "POST" and (len(types) != 1 or types[0].split(";")[0].strip().lower() != "application/json"):
        return f"a fixture request body must be application/json, found {types}"
    return None


FAILURES = {BodyError: (400, "PGRST102"), Refused: (409, "ACF01"), Unsupported: (501, "ACF02"), Unreachable: (503, "PGRST000")}
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "expect",
              "host", "content-length"}


class Handler(BaseHTTPRequestHandler):
    protocol_version, disable_nagle_algorithm = "HTTP/1.1", True

    def log_message(self, *args):
        pass

    def __getattr__(self, name):  # every method (GET, POST, PATCH, ...) goes through route()
        if name.startswith("do_"):
            return self.route
        raise AttributeError(name)

    def send_error(self, code, message=None, explain=None):  # http.server's own refusals, PostgREST-shaped
        self.close_connection = True
        self.error(code, f"HTTP{code}", message or "bad request")

    def answer(self, status, body=None, headers=()):
        data = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
        self.send_response(status)
        for name, value in list(headers) + ([] if status == 204 else [("Content-Type", "application/json; charset=utf-8"),
                                                                       ("Content-Length", str(len(data)))]):
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def error(self, status, code, message, details=None, headers=()):
        self.answer(status, {"code": code, "details": details, "hint": None, "message": message}, headers)

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
        body = self.read_body()
        if self.path.split("?", 1)[0].startswith("/accord/fixtures/"):
            return self.fixture(self.path.split("?", 1)[0][len("/accord/fixtures/"):], body)
        self.forward(body)

    def fixture(self, operation, body):
        refusal = access_refusal(self.headers, self.command)
        if refusal:
            return self.error(403, "ACF04", refusal)
        if operation not in ("seed", "step", "change", "commit", "capabilities"):
            return self.error(404, "PGRST125", "Invalid path specified in request URL")
        allowed = "GET" if operation == "capabilities" else "POST"
        if self.command != allowed:
            return self.error(405, "PGRST117", f"Unsupported HTTP method: {self.command}", headers=[("Allow", allowed)])
        db = self.server.database
        try:
            if operation == "capabilities":
                return self.answer(200, db.capabilities())
            try:
                value = parse_json(body)
            except ValueError as error:
                return self.error(400, "PGRST102", "Empty or invalid json", str(error))
            if not isinstance(value, dict) or value.dup:
                problem = f'repeats the key "{value.dup}"' if isinstance(value, dict) else f"must be an object, not {kind(value)}"
                return self.error(400, "PGRST102", "The request body " + problem)
            call = {"seed": db.seed, "step": db.set_clock, "change": db.apply, "commit": db.commit}[operation]
            result = call(*read_fixture(operation, value))
            self.answer(200, result) if result is not None else self.answer(204)
        except Exception as error:  # the contract's table of failures
            status, code = next((FAILURES[t] for t in FAILURES if isinstance(error, t)), (500, "ACF03"))
            if isinstance(error, BodyError):
                return self.error(status, code, "Invalid fixture body", str(error))
            self.error(status, code, str(error) if status != 500 else f"{type(error).__name__}: {error}")

    def forward(self, body):
        """Sends the request on to the upstream as it came, and its answer back as it came."""
        upstream = self.server.upstream
        try:
            connection = (http.client.HTTPSConnection if upstream.scheme == "https" else http.client.HTTPConnection)(
                upstream.hostname, upstream.port, timeout=60)
            connection.putrequest(self.command, upstream.path.rstrip("/") + self.path, skip_host=True, skip_accept_encoding=True)
            for name, value in [("Host", upstream.netloc)] + [h for h in self.headers.items() if h[0].lower() not in HOP_BY_HOP]:
                connection.putheader(name, value)
            if body or "Content-Length" in self.headers or "Transfer-Encoding" in self.headers:
                connection.putheader("Content-Length", str(len(body)))
            connection.endheaders(body)
            response = connection.getresponse()
            data = response.read()
            connection.close()
        except (OSError, http.client.HTTPException) as error:
            return self.error(503, "PGRST000", f"the server at {upstream.geturl()} cannot be reached: {error}")
        self.send_response_only(response.status, response.reason)
        for name, value in response.getheaders():
            if name.lower() not in HOP_BY_HOP:
                self.send_header(name, value)
        if response.status not in (204, 304):
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(b"" if self.command == "HEAD" else data)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, host, port, database, upstream):
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.database, self.upstream = database, upstream
        super().__init__((host, port), Handler)


def main():
    parser = argparse.ArgumentParser(description="Accord's fixture endpoint in front of a KizunaSync server.")
    parser.add_argument("--db", required=True, help="the server's own database (here: its SQLite file)")
    parser.add_argument("--upstream", required=True, help="the server's URL, e.g. http://127.0.0.1:54321")
    parser.add_argument("--listen", default="127.0.0.1:0", help="loopback host:port to listen on (default 127.0.0.1:0)")
    options = parser.parse_args()
    host, _, port = options.listen.rpartition(":")
    host = "127.0.0.1" if host == "localhost" else host.strip("[]")
    if not ipaddress.ip_address(host).is_loopback:
        parser.error("--listen: the fixture endpoint binds a loopback address only")
    server = Server(host, int(port), Database(options.db), urllib.parse.urlsplit(options.upstream))
    stop = threading.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: stop.set())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"listening on http://{f'[{host}]' if ':' in host else host}:{server.server_address[1]}", flush=True)
    while not stop.wait(0.5):
        pass
    server.shutdown()
    server.server_close()


if __name__ == "__main__":
    main()
