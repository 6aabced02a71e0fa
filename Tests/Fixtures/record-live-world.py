#!/usr/bin/env python3
"""Records a session of a service with a past and another writer, as a team records staging:
reference clients (`accord driver`) sync through `accord record` in front of an `accord serve
--fixtures`, while another actor writes straight to the service (fixture `change` calls the proxy
never sees). Everything on loopback; every process is stopped at the end.

    record-live-world.py --accord PATH --out FILE

The service's past, made before the recording starts: six rows of user A and two of user B, one
of A's edited twice and one deleted. Then three devices (A's phone and laptop, B's tablet) pull
(pages of 2), write and push, while the other actor inserts, edits and deletes rows between their
exchanges: a row nobody ever sees live is made and deleted (its tombstone reaches A's laptop), B's
tablet edits a row of A's and inserts a key a third user's row holds (RLS_DENIED both), A's phone
pushes against a row the other actor edited since its last pull (PRECONDITION, the server's row in
the verdict).
"""
import argparse, json, os, shutil, signal, sys, tempfile, urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from accord_session import Device, start, stop

SECRET = "live-world-secret"
USER_A = "00000000-0000-4000-8000-a10000000001"
USER_B = "00000000-0000-4000-8000-a10000000002"
USER_C = "00000000-0000-4000-8000-a10000000003"
ACTOR = "00000000-0000-4000-8000-a10000000009"
SERVER = {"min_schema_version": 1, "tables": {"todos": {"bucket_column": "owner_id"}}, "tombstone_ttl_days": 30}
# A parent that spawned us from a thread with every signal blocked (a test runner) passes the mask on.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM, signal.SIGTERM, signal.SIGINT})
signal.alarm(240)


def key(n):
    return f"00000000-0000-4000-8000-e100000000{n:02d}"


def mid(n):
    return f"00000000-0000-4000-8000-f100000000{n:02d}"


class Service:
    """The fixture endpoint of the service: the other actor's writes, which the proxy never sees."""

    def __init__(self, port):
        self.port = port

    def post(self, op, body):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/accord/fixtures/{op}", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        urllib.request.urlopen(request, timeout=10).read()

    def upsert(self, n, columns):
        self.post("change", {"op": "upsert", "table": "todos", "pk": key(n), "columns": columns, "actor": ACTOR})

    def row(self, n, owner, title, done=False):
        self.upsert(n, {"id": key(n), "owner_id": owner, "title": title, "done": done})

    def delete(self, n):
        self.post("change", {"op": "delete", "table": "todos", "pk": key(n), "actor": ACTOR})


class Checked(Device):
    """A device whose every call must succeed: the session is the fixture, not the test."""

    def call(self, op, **fields):
        answer = super().call(op, **fields)
        if "error" in answer:
            sys.exit(f"driver {op} failed: {answer}")
        return answer


def update(n, k, columns, precondition=None):
    mutation = {"mutation_id": mid(n), "op": "update", "table": "todos", "pk": key(k), "columns": columns}
    if precondition:
        mutation["precondition"] = precondition
    return mutation


def session(service, device):
    phone = device("00000000-0000-4000-8000-c10000000001", USER_A)
    laptop = device("00000000-0000-4000-8000-c10000000002", USER_A)
    tablet = device("00000000-0000-4000-8000-c10000000003", USER_B)
    phone.call("pull")
    service.row(9, USER_A, "added by the web app")
    service.upsert(1, {"title": "renamed on the web"})
    laptop.call("pull")
    phone.write(update(1, 3, {"title": "phone renamed it"}))
    phone.write({"mutation_id": mid(2), "op": "insert", "table": "todos", "pk": key(10),
                 "columns": {"id": key(10), "owner_id": USER_A, "title": "from the phone", "done": False}})
    phone.call("push")
    service.delete(4)
    tablet.call("pull")
    service.row(11, USER_B, "shared with the tablet")
    service.row(12, USER_A, "gone before anyone saw it")
    service.delete(12)
    service.row(13, USER_C, "a third user's, never recorded")
    tablet.write(update(3, 7, {"done": True}))
    tablet.write(update(4, 1, {"title": "not yours"}))
    tablet.write({"mutation_id": mid(6), "op": "insert", "table": "todos", "pk": key(13),
                  "columns": {"id": key(13), "owner_id": USER_B, "title": "a key that is taken", "done": False}})
    tablet.call("push")
    laptop.call("pull")
    service.upsert(10, {"title": "edited on the web"})
    phone.write(update(5, 10, {"done": True}, {"title": "from the phone"}))
    phone.call("push")
    phone.call("pull")
    tablet.call("pull")
    for each in (phone, laptop, tablet):
        each.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--accord", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="accord-live-world-")
    serve, serve_port = start([args.accord, "serve", "--listen", "127.0.0.1:0", "--jwt-secret", SECRET, "--fixtures"],
                              r"127\.0\.0\.1:(\d+)")
    proxy = None
    try:
        service = Service(serve_port)
        service.post("seed", {"server": SERVER})
        for n in range(1, 7):
            service.row(n, USER_A, f"task {n}")
        service.row(7, USER_B, "b's first")
        service.row(8, USER_B, "b's second")
        service.upsert(2, {"title": "task 2, edited"})
        service.upsert(2, {"done": True})
        service.delete(5)
        if os.path.exists(args.out):
            os.remove(args.out)
        proxy, port = start([args.accord, "record", "--upstream", f"http://127.0.0.1:{serve_port}", "--listen", "127.0.0.1:0",
                             "--out", args.out, "--quiet"], r"127\.0\.0\.1:(\d+)")
        session(service, lambda client, user: Checked(args.accord, SECRET, client, user, port, os.path.join(work, client), SERVER))
    finally:
        if proxy:
            stop(proxy)
        stop(serve)
        shutil.rmtree(work, ignore_errors=True)
    print(f"recorded {args.out}")


if __name__ == "__main__":
    main()
