#!/usr/bin/env python3
"""A live service's day for bench/live-replay.sh: devices sync through `accord record` in front of
an `accord serve --fixtures` while another actor writes straight to the service, until the
recording holds EXCHANGES exchanges.

    live-load.py --proxy http://127.0.0.1:P --service http://127.0.0.1:S --secret S [--devices 50] [--exchanges 50000] [--seed 7]

USERS = devices / 2, two devices each. Each step picks a device (seeded, so runs repeat): a pull to
completion (pages of 50), a push of one to three mutations (inserts, updates with the odd stale
precondition, the odd delete), or, one step in ten, the other actor's upsert or delete of some
user's row through the fixture endpoint, which the recording never sees. Prints the counts.
"""
import argparse, http.client, json, os, random, sys, urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from accord_session import jwt


def uuid(kind, n):
    return f"00000000-0000-4000-8000-{kind}{n:010d}"


class Connection:
    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.host, self.port = parts.hostname, parts.port
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)

    def post(self, path, body, headers):
        data = json.dumps(body, separators=(",", ":")).encode()
        for attempt in range(2):
            try:
                self.conn.request("POST", path, body=data, headers=headers)
                response = self.conn.getresponse()
                payload = response.read()
                return response.status, json.loads(payload) if payload else None
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
                if attempt:
                    raise


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--proxy", required=True)
    parser.add_argument("--service", required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--devices", type=int, default=50)
    parser.add_argument("--exchanges", type=int, default=50000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    proxy = Connection(args.proxy)
    service = Connection(args.service)
    users = [uuid("a1", n) for n in range(1, args.devices // 2 + 1)]
    devices = []
    for n in range(1, args.devices + 1):
        user = users[(n - 1) % len(users)]
        client = uuid("c1", n)
        devices.append({
            "user": user, "client": client, "cursor": "0", "last": None,
            "headers": {"Authorization": "Bearer " + jwt(args.secret, user, client), "Content-Type": "application/json",
                        "Accept": "application/json", "Content-Profile": "kizunasync"},
        })
    rows = {user: {} for user in users}  # user -> pk -> title, as the service holds them
    next_row = 1
    next_mutation = 1
    exchanges = pushes = pulls = outside = 0
    fixture = {"Content-Type": "application/json"}
    while exchanges < args.exchanges:
        roll = rng.random()
        if roll < 0.1:
            user = rng.choice(users)
            owned = rows[user]
            if owned and rng.random() < 0.25:
                pk = rng.choice(sorted(owned))
                service.post("/accord/fixtures/change", {"op": "delete", "table": "todos", "pk": pk, "actor": uuid("c9", 1)}, fixture)
                del owned[pk]
            else:
                if owned and rng.random() < 0.6:
                    pk = rng.choice(sorted(owned))
                else:
                    pk = uuid("e1", next_row)
                    next_row += 1
                title = f"web edit {outside}"
                columns = {"id": pk, "owner_id": user, "title": title, "done": rng.random() < 0.5}
                service.post("/accord/fixtures/change",
                             {"op": "upsert", "table": "todos", "pk": pk, "columns": columns, "actor": uuid("c9", 1)}, fixture)
                owned[pk] = title
            outside += 1
            continue
        device = rng.choice(devices)
        owned = rows[device["user"]]
        if roll < 0.55:
            while True:
                body = {"buckets": [{"table": "todos", "params": {"owner_id": device["user"]}}], "client_id": device["client"],
                        "cursor": device["cursor"], "schema_version": 1, "limit": 50}
                status, answer = proxy.post("/rest/v1/rpc/pull", body, device["headers"])
                exchanges += 1
                pulls += 1
                if status != 200 or answer.get("signal"):
                    break
                device["cursor"] = answer["cursor"]
                if not answer["has_more"]:
                    break
            continue
        mutations = []
        for _ in range(rng.randint(1, 3)):
            mutation_id = uuid("f1", next_mutation)
            next_mutation += 1
            kind = rng.random()
            if not owned or kind < 0.4:
                pk = uuid("e1", next_row)
                next_row += 1
                title = f"from {device['client'][-4:]} {next_mutation}"
                mutations.append({"mutation_id": mutation_id, "op": "insert", "table": "todos", "pk": pk,
                                  "columns": {"id": pk, "owner_id": device["user"], "title": title, "done": False}})
            elif kind < 0.9:
                pk = rng.choice(sorted(owned))
                mutation = {"mutation_id": mutation_id, "op": "update", "table": "todos", "pk": pk,
                            "columns": {"title": f"edit {next_mutation}"}}
                if kind < 0.5:
                    mutation["precondition"] = {"title": rng.choice([owned[pk], "stale"])}
                mutations.append(mutation)
            else:
                pk = rng.choice(sorted(owned))
                mutations.append({"mutation_id": mutation_id, "op": "delete", "table": "todos", "pk": pk, "columns": {}})
        body = {"batch": {"atomic": False, "mutations": mutations}, "client_id": device["client"],
                "last_mutation_id": device["last"], "schema_version": 1}
        status, answer = proxy.post("/rest/v1/rpc/push", body, device["headers"])
        exchanges += 1
        pushes += 1
        for mutation, verdict in zip(mutations, (answer or {}).get("verdicts", [])):
            if verdict.get("verdict") != "applied":
                continue
            device["last"] = mutation["mutation_id"]
            if mutation["op"] == "delete":
                owned.pop(mutation["pk"], None)
            else:
                owned[mutation["pk"]] = mutation["columns"]["title"]
    print(json.dumps({"exchanges": exchanges, "pulls": pulls, "pushes": pushes, "outside_writes": outside,
                      "users": len(users), "devices": len(devices)}))


if __name__ == "__main__":
    main()
