#!/usr/bin/env python3
"""Records the sessions in Recordings/: reference clients (`accord driver`) syncing through
`accord record` with `accord serve`, all on loopback, every process stopped at the end.

    scripts/record-sessions.py [--accord PATH] [--out DIR]

Three recordings:
- multi-user-sync.jsonl: two users, three devices; writes paged with limit 2, same-column and
  different-column conflicts, a PRECONDITION rejection, an atomic abort, another user's edit
  refused (RLS_DENIED);
- schema-reset.jsonl: a client whose schema_version is below the server's minimum gets
  RESET_REQUIRED on pull and push and stays soft-blocked;
- wall-clock-deletes.jsonl: two devices, two hard deletes whose tombstones reach the other
  device, recorded from an `accord serve` that no fixture call ever seeded, so its deleted_at
  values come from the wall clock (a replay binds them to the replaying server's own times).
"""
import argparse, json, os, shutil, signal, sys, tempfile, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accord_session import Device, start, stop

SECRET = "record-sessions-secret"
USER_A = "00000000-0000-4000-8000-a10000000001"
USER_B = "00000000-0000-4000-8000-a10000000002"
signal.alarm(300)


def key(n):
    return f"00000000-0000-4000-8000-e100000000{n:02d}"


def mid(n):
    return f"00000000-0000-4000-8000-f100000000{n:02d}"


def insert(n, k, owner, title):
    return {"mutation_id": mid(n), "op": "insert", "table": "todos", "pk": key(k),
            "columns": {"id": key(k), "owner_id": owner, "title": title, "done": False}}


def update(n, k, columns, precondition=None):
    m = {"mutation_id": mid(n), "op": "update", "table": "todos", "pk": key(k), "columns": columns}
    if precondition:
        m["precondition"] = precondition
    return m


def seed(serve_port, min_schema):
    body = json.dumps({"server": {"min_schema_version": min_schema, "tables": {"todos": {"bucket_column": "owner_id"}},
                                  "tombstone_ttl_days": 30}}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{serve_port}/accord/fixtures/seed", data=body,
                                     headers={"Content-Type": "application/json"}, method="POST")
    urllib.request.urlopen(request, timeout=10).read()


def record(accord, serve_port, out, session, work):
    proxy, port = start([accord, "record", "--upstream", f"http://127.0.0.1:{serve_port}", "--listen", "127.0.0.1:0",
                         "--out", out, "--quiet"], r"127\.0\.0\.1:(\d+)")
    try:
        server = {"min_schema_version": 1, "tables": {"todos": {"bucket_column": "owner_id"}}, "tombstone_ttl_days": 30}
        session(lambda client, user, schema=1: Device(accord, SECRET, client, user, port, os.path.join(work, client), server, schema))
    finally:
        stop(proxy)


def multi_user(device):
    phone = device("00000000-0000-4000-8000-c10000000001", USER_A)
    laptop = device("00000000-0000-4000-8000-c10000000002", USER_A)
    other = device("00000000-0000-4000-8000-c10000000003", USER_B)
    for n in range(1, 6):
        phone.write(insert(n, n, USER_A, f"task {n}"))
    phone.call("push")
    laptop.call("pull")
    phone.write(update(10, 1, {"title": "phone title"}))
    laptop.write(update(11, 1, {"title": "laptop title"}))
    phone.write(update(12, 2, {"title": "phone renamed"}))
    laptop.write(update(13, 2, {"done": True}))
    phone.call("push")
    laptop.call("push")
    laptop.write(update(14, 3, {"title": "laptop took it"}))
    laptop.call("push")
    phone.write(update(15, 3, {"title": "phone took it"}, {"title": "task 3"}))
    phone.call("push")
    phone.write(insert(16, 6, USER_A, "only with its sibling"), "g1")
    phone.write(update(17, 4, {"title": "claimed"}, {"title": "stale"}), "g1")
    phone.call("push")
    other.call("pull")
    other.write(update(18, 1, {"title": "not yours"}))
    other.call("push")
    phone.call("pull")
    laptop.call("pull")
    for d in (phone, laptop, other):
        d.close()


def schema_reset(device):
    old = device("00000000-0000-4000-8000-c10000000004", USER_A)
    old.write(insert(20, 20, USER_A, "written by an old build"))
    old.call("push")
    old.call("pull")
    old.close()


def deletes(device):
    writer = device("00000000-0000-4000-8000-c10000000005", USER_A)
    reader = device("00000000-0000-4000-8000-c10000000006", USER_A)
    writer.write(insert(30, 30, USER_A, "kept until later"))
    writer.write(insert(31, 31, USER_A, "deleted first"))
    writer.call("push")
    reader.call("pull")
    writer.write({"mutation_id": mid(32), "op": "delete", "table": "todos", "pk": key(31), "columns": {}})
    writer.call("push")
    reader.call("pull")
    writer.write({"mutation_id": mid(33), "op": "delete", "table": "todos", "pk": key(30), "columns": {}})
    writer.call("push")
    reader.call("pull")
    writer.close()
    reader.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--accord", default=None)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "Recordings"))
    args = parser.parse_args()
    accord = args.accord or shutil.which("accord") or sys.exit("give --accord PATH")
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="accord-record-sessions-")
    serve, serve_port = start([accord, "serve", "--listen", "127.0.0.1:0", "--jwt-secret", SECRET, "--fixtures"],
                              r"127\.0\.0\.1:(\d+)")
    # No fixture call ever reaches this one, so it stamps deleted_at from the wall clock.
    wall, wall_port = start([accord, "serve", "--listen", "127.0.0.1:0", "--jwt-secret", SECRET], r"127\.0\.0\.1:(\d+)")
    try:
        for name, port, min_schema, session in [("multi-user-sync", serve_port, 1, multi_user),
                                                ("schema-reset", serve_port, 2, schema_reset),
                                                ("wall-clock-deletes", wall_port, None, deletes)]:
            if min_schema is not None:
                seed(port, min_schema)
            out = os.path.join(args.out, name + ".jsonl")
            if os.path.exists(out):
                os.remove(out)
            record(accord, port, out, session, os.path.join(work, name))
            print(f"recorded {out}")
    finally:
        stop(serve)
        stop(wall)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
