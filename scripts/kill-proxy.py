#!/usr/bin/env python3
"""Kills `accord record` with SIGKILL mid-session, RUNS times (default 50), and checks that every
recording still loads, that every exchange a client saw complete before the kill is in it, and
that a torn last line is reported, not fatal. Loopback only; every process is stopped.

    scripts/kill-proxy.py --accord PATH [--runs 50] [--clients 4]
"""
import argparse, base64, hashlib, hmac, http.client, json, os, random, re, shutil, signal, subprocess, sys, tempfile
import threading, time, urllib.request, uuid

SECRET = "kill-proxy-secret"
USER = "00000000-0000-4000-8000-a10000000001"
signal.alarm(900)


def jwt(user, client):
    b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
    head = b64(b'{"alg":"HS256","typ":"JWT"}')
    body = b64(json.dumps({"session_id": client, "sub": user}, separators=(",", ":")).encode())
    sig = b64(hmac.new(SECRET.encode(), f"{head}.{body}".encode(), hashlib.sha256).digest())
    return f"{head}.{body}.{sig}"


def start(args):
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    match = re.search(r"127\.0\.0\.1:(\d+)", proc.stdout.readline())
    if not match:
        os.killpg(proc.pid, signal.SIGKILL)
        sys.exit(f"{args[1]} did not start")
    return proc, int(match.group(1))


def client_loop(port, client, done, stop):
    token = jwt(USER, client)
    while not stop.is_set():
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            while not stop.is_set():
                mid = str(uuid.uuid4())
                pk = str(uuid.uuid4())
                body = json.dumps({"batch": {"atomic": False, "mutations": [{"mutation_id": mid, "op": "insert", "table": "todos",
                        "pk": pk, "columns": {"id": pk, "owner_id": USER, "title": "kill test", "done": False}}]},
                        "client_id": client, "last_mutation_id": None, "schema_version": 1})
                conn.request("POST", "/rest/v1/rpc/push", body, {"Authorization": f"Bearer {token}", "apikey": "anon-key",
                             "Content-Type": "application/json", "Accept": "application/json", "Content-Profile": "kizunasync"})
                response = conn.getresponse()
                payload = response.read()
                if response.status == 200 and len(payload) == int(response.getheader("Content-Length", len(payload))):
                    done.append(mid)
        except (OSError, http.client.HTTPException):
            return


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--accord", required=True)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="accord-kill-proxy-")
    serve, serve_port = start([args.accord, "serve", "--listen", "127.0.0.1:0", "--jwt-secret", SECRET, "--fixtures"])
    seed = json.dumps({"server": {"min_schema_version": 1, "tables": {"todos": {"bucket_column": "owner_id"}},
                                  "tombstone_ttl_days": 30}}).encode()
    urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{serve_port}/accord/fixtures/seed", data=seed,
                                                  headers={"Content-Type": "application/json"}), timeout=10).read()
    totals = {"completed": 0, "recorded": 0, "torn": 0, "failures": 0}
    try:
        for run in range(args.runs):
            out = os.path.join(work, f"run-{run}.jsonl")
            proxy, port = start([args.accord, "record", "--upstream", f"http://127.0.0.1:{serve_port}", "--listen",
                                 "127.0.0.1:0", "--out", out, "--quiet"])
            done, stop = [], threading.Event()
            threads = [threading.Thread(target=client_loop, args=(port, f"00000000-0000-4000-8000-c1000000{c:04d}", done, stop))
                       for c in range(args.clients)]
            for t in threads:
                t.start()
            time.sleep(random.uniform(0.05, 0.6))
            os.killpg(proxy.pid, signal.SIGKILL)
            proxy.wait()
            stop.set()
            for t in threads:
                t.join(timeout=10)
            recorded, torn = set(), False
            with open(out, "rb") as f:
                lines = f.read().split(b"\n")
            for index, line in enumerate(lines[1:], start=1):
                if not line:
                    continue
                try:
                    exchange = json.loads(line)
                except ValueError:
                    if index != len(lines) - 1:
                        print(f"run {run}: line {index + 1} is corrupt and not the last", file=sys.stderr)
                        totals["failures"] += 1
                    torn = True
                    continue
                for m in exchange.get("request", {}).get("batch", {}).get("mutations", []):
                    recorded.add(m["mutation_id"])
            missing = [m for m in done if m not in recorded]
            check = subprocess.run([args.accord, "check", out], capture_output=True, text=True)
            if missing or check.returncode != 0 or (torn and "torn" not in (check.stdout + check.stderr).lower()):
                totals["failures"] += 1
                print(f"run {run}: {len(missing)} completed exchange(s) missing; check exit {check.returncode}", file=sys.stderr)
            totals["completed"] += len(done)
            totals["recorded"] += len(recorded)
            totals["torn"] += torn
    finally:
        os.killpg(serve.pid, signal.SIGKILL)
        shutil.rmtree(work, ignore_errors=True)
    print(f"{args.runs} kills: {totals['completed']} exchanges completed by clients, {totals['recorded']} recorded, "
          f"{totals['torn']} torn tails reported, {totals['failures']} failed runs")
    sys.exit(1 if totals["failures"] else 0)


if __name__ == "__main__":
    main()
