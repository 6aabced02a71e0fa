#!/usr/bin/env python3
"""A tiny accord-driver/1 driver in Python with its own sqlite3 store (a test fixture).

It shows that the storage-fault matrix needs nothing of a driver but the protocol: libfiu fails
the pwrite/fsync calls of Python's own sqlite3 module, and that a driver doing part of the
protocol runs the whole corpus: its hello declares `parts` pull and transport-error
(docs/driver-protocol.md §5.1), so the client lane reports every case that writes, pushes or
drops an ack not applicable. It speaks hello, open, pull, state and close; `write` and `push`
are refused with DRIVER_UNSUPPORTED (after RESET_REQUIRED the runner probes only the pull). Pages with
has_more:true are staged in a table of the store; the closing page commits staged and final rows
and the cursor in one transaction; a pull that fails drops what was staged, so the next one
restarts from the committed cursor. CHECKPOINT_EXPIRED keeps the cursor and makes the next
transfer a rehydration from "0" that replaces the rows; RESET_REQUIRED latches a soft block.
A store failure answers STORE, as spec/engine-errors.json names it.

With --undeclared it stands for a driver written before `parts`: its hello declares none, a
write is refused as an engine does, LOCAL_UNSUPPORTED, and a push of its always-empty outbox
sends nothing; the runner then skips the rest of each writing case as unsupported, counting the
case as skipped, instead of failing it.
"""
import json
import signal
import sqlite3
import sys
import urllib.error
import urllib.request

signal.signal(signal.SIGPIPE, signal.SIG_IGN)
OPS = {"hello", "open", "write", "push", "pull", "state", "close"}
UNDECLARED = "--undeclared" in sys.argv[1:]
# --claims-write: the hello declares writes and pushes the fixture still refuses (a broken driver).
CLAIMS_WRITE = "--claims-write" in sys.argv[1:]


class Refusal(Exception):
    def __init__(self, code, message, pointer=None):
        super().__init__(message)
        self.code, self.message, self.pointer = code, message, pointer


class Store:
    def __init__(self, request):
        self.open_request = request
        self.db = sqlite3.connect(request["store"], isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE IF NOT EXISTS rows (tbl TEXT, pk TEXT, row TEXT, PRIMARY KEY (tbl, pk))")
        self.db.execute("CREATE TABLE IF NOT EXISTS staging (ord INTEGER PRIMARY KEY, tbl TEXT, pk TEXT, row TEXT)")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS sync_state (id INTEGER PRIMARY KEY, cursor TEXT, staging_cursor TEXT,"
            " rehydrate INTEGER NOT NULL DEFAULT 0, blocked INTEGER NOT NULL DEFAULT 0)")
        self.db.execute(
            "INSERT OR IGNORE INTO sync_state (id, cursor, staging_cursor) VALUES (1, ?, NULL)",
            (request.get("checkpoint", "0"),))
        self.events = []

    def sync_state(self):
        return self.db.execute("SELECT cursor, staging_cursor, rehydrate, blocked FROM sync_state WHERE id = 1").fetchone()

    def transaction(self, body):
        try:
            self.db.execute("BEGIN IMMEDIATE")
            body()
            self.db.execute("COMMIT")
        except sqlite3.Error as error:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise Refusal("STORE", f"the store failed: {error}")

    def fetch(self, cursor):
        request = self.open_request
        tables = request["server"]["tables"]
        body = {
            "buckets": [{"params": {tables[t]["bucket_column"]: request["user_id"]}, "table": t} for t in tables],
            "client_id": request["client_id"], "cursor": cursor, "schema_version": request["schema_version"]}
        if "pull_limit" in request:
            body["limit"] = request["pull_limit"]
        http = urllib.request.Request(
            request["base_url"] + "/rest/v1/rpc/pull", data=json.dumps(body).encode(), method="POST",
            headers={"Authorization": "Bearer " + request["jwt"], "apikey": request["apikey"],
                     "Content-Type": "application/json", "Accept": "application/json",
                     "Content-Profile": "kizunasync"})
        try:
            with urllib.request.urlopen(http, timeout=5) as answer:
                return json.loads(answer.read())
        except (urllib.error.URLError, OSError, ValueError) as error:
            raise Refusal("REMOTE", f"pull: {error}")

    def drop_staging(self):
        def drop():
            self.db.execute("DELETE FROM staging")
            self.db.execute("UPDATE sync_state SET staging_cursor = NULL WHERE id = 1")
        self.transaction(drop)

    def pull(self, max_pages):
        pages = 0
        while True:
            cursor, staging, rehydrate, blocked = self.sync_state()
            if blocked:
                return {"cursor": cursor, "outcome": "blocked", "pages": pages}
            try:
                page = self.fetch(staging or ("0" if rehydrate else cursor))
            except Refusal:
                self.drop_staging()
                raise
            pages += 1
            signal = (page.get("signal") or {}).get("type")
            if signal in ("CHECKPOINT_EXPIRED", "RESET_REQUIRED"):
                column = "rehydrate" if signal == "CHECKPOINT_EXPIRED" else "blocked"

                def latch():
                    self.db.execute("DELETE FROM staging")
                    self.db.execute(f"UPDATE sync_state SET staging_cursor = NULL, {column} = 1 WHERE id = 1")
                self.transaction(latch)
                self.events.append({"code": signal})
                return {"cursor": cursor, "outcome": "signal", "pages": pages, "signal": signal}
            if page.get("signal") is not None:
                self.drop_staging()
                raise Refusal("UNKNOWN_SIGNAL", f"unknown signal {page['signal']!r}")
            changes = [(r["table"], r["pk"], json.dumps(r["row"])) for r in page["rows"]]
            changes += [(t["table"], t["pk"], None) for t in page["tombstones"]]
            if page["has_more"]:
                def stage():
                    self.db.executemany("INSERT INTO staging (tbl, pk, row) VALUES (?, ?, ?)", changes)
                    self.db.execute("UPDATE sync_state SET staging_cursor = ? WHERE id = 1", (page["cursor"],))
                self.transaction(stage)
                if max_pages is not None and pages >= max_pages:
                    return {"cursor": cursor, "outcome": "staged", "pages": pages}
                continue

            def commit():
                staged = self.db.execute("SELECT tbl, pk, row FROM staging ORDER BY ord").fetchall()
                if rehydrate:
                    self.db.execute("DELETE FROM rows")
                for table, pk, row in staged + changes:
                    if row is None:
                        self.db.execute("DELETE FROM rows WHERE tbl = ? AND pk = ?", (table, pk))
                    else:
                        self.db.execute("INSERT OR REPLACE INTO rows (tbl, pk, row) VALUES (?, ?, ?)", (table, pk, row))
                self.db.execute("DELETE FROM staging")
                self.db.execute(
                    "UPDATE sync_state SET cursor = ?, staging_cursor = NULL, rehydrate = 0 WHERE id = 1", (page["cursor"],))
            self.transaction(commit)
            return {"cursor": page["cursor"], "outcome": "closed", "pages": pages}

    def push(self):
        blocked = self.sync_state()[3]
        return {"mutations": 0, "outcome": "blocked" if blocked else "nothing"}

    def state(self, tables):
        names = tables if tables is not None else list(self.open_request["server"]["tables"])
        rows = {name: {} for name in names}
        try:
            for table, pk, row in self.db.execute("SELECT tbl, pk, row FROM rows"):
                if table in rows:
                    rows[table][pk] = json.loads(row)
            cursor = self.sync_state()[0]
        except sqlite3.Error as error:
            raise Refusal("STORE", f"the store failed: {error}")
        return {"cursor": cursor, "events": self.events, "journal": [], "outbox_depth": 0, "rows": rows}


def handle(request, session):
    op = request.get("op")
    if op not in OPS:
        raise Refusal("DRIVER_UNKNOWN_OP", f"unknown op {op!r}", "/op")
    if op == "hello":
        session["hello"] = True
        hello = {"capabilities": [], "name": "pull-only-python-fixture", "protocol": "accord-driver/1", "version": "1"}
        if not UNDECLARED:
            hello["parts"] = ["pull", "transport-error"] + (["write", "push"] if CLAIMS_WRITE else [])
        return hello
    if op == "close":
        if session.get("store"):
            session["store"].db.close()
        session["closed"] = True
        return {}
    if not session.get("hello"):
        raise Refusal("DRIVER_SEQUENCE", "hello comes first", "")
    if op == "open":
        if session.get("store"):
            raise Refusal("DRIVER_SEQUENCE", "a store is open", "")
        if request["user_id"] != session.setdefault("user_id", request["user_id"]):
            raise Refusal("STORE_UNAVAILABLE", "this fixture keeps one identity per process")
        try:
            session["store"] = Store(request)
        except sqlite3.Error as error:
            raise Refusal("STORE", f"the store did not open: {error}")
        return {}
    store = session.get("store")
    if store is None:
        raise Refusal("DRIVER_SEQUENCE", "no store is open", "")
    if op == "write":
        if UNDECLARED:
            raise Refusal("LOCAL_UNSUPPORTED", "this engine's local subset takes no writes")
        raise Refusal("DRIVER_UNSUPPORTED", "this fixture does not write", "")
    if op == "push":
        if not UNDECLARED:
            raise Refusal("DRIVER_UNSUPPORTED", "this fixture does not push", "")
        return store.push()
    if op == "pull":
        return store.pull(request.get("max_pages"))
    return store.state(request.get("tables"))


def main():
    session = {}
    for line in sys.stdin:
        if not line.strip():
            continue
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            answer = {"id": request_id, "result": handle(request, session)}
        except Refusal as refusal:
            error = {"code": refusal.code, "message": refusal.message}
            if refusal.pointer is not None:
                error["pointer"] = refusal.pointer
            answer = {"error": error, "id": request_id}
        except ValueError as error:
            answer = {"error": {"code": "DRIVER_BAD_JSON", "message": str(error), "pointer": ""}, "id": None}
        try:
            sys.stdout.write(json.dumps(answer, separators=(",", ":"), sort_keys=True) + "\n")
            sys.stdout.flush()
        except BrokenPipeError:
            return
        if session.get("closed"):
            return


if __name__ == "__main__":
    main()
