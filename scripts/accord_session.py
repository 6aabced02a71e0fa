"""What the scripts that drive accord on loopback share: a JWT minted for a user and a client,
starting an accord command and reading the port from its listening line, stopping it by pid, and
a device (`accord driver`, the reference client) synced through a server or a recording proxy.

Imported by scripts/record-sessions.py, Tests/Fixtures/record-live-world.py and
bench/live-load.py (each puts this folder on sys.path).
"""
import base64, hashlib, hmac, json, os, re, signal, subprocess, sys


def jwt(secret, user, client):
    """An HS256 JWT with the claims accord's servers read: `sub` the user, `session_id` the client."""
    b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
    head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64(json.dumps({"session_id": client, "sub": user}, separators=(",", ":"), sort_keys=True).encode())
    sig = b64(hmac.new(secret.encode(), f"{head}.{body}".encode(), hashlib.sha256).digest())
    return f"{head}.{body}.{sig}"


def start(args, pattern):
    """Starts a command and returns it with the port its first stdout line names."""
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    line = proc.stdout.readline()
    match = re.search(pattern, line)
    if not match:
        proc.kill()
        sys.exit(f"no listening line from {args[1]}: {line!r}")
    return proc, int(match.group(1))


def stop(proc):
    """SIGINT, then SIGKILL of its process group after 10 s."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


class Device:
    """One reference client (`accord driver`) with its own store, opened against `port`."""

    def __init__(self, accord, secret, client, user, port, store, server, schema=1, pull_limit=2):
        self.proc = subprocess.Popen([accord, "driver"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, start_new_session=True)
        self.next = 1
        self.call("hello", protocol="accord-driver/1")
        self.call("open", store=store, base_url=f"http://127.0.0.1:{port}", apikey="anon-key", jwt=jwt(secret, user, client),
                  client_id=client, user_id=user, schema_version=schema, server=server, pull_limit=pull_limit)

    def call(self, op, **fields):
        fields.update(id=self.next, op=op)
        self.next += 1
        self.proc.stdin.write(json.dumps(fields) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def write(self, mutation, group=None):
        request = {"mutation": mutation}
        if group:
            request["atomic_group"] = group
        return self.call("write", **request)

    def close(self):
        self.call("close")
        self.proc.wait(timeout=10)
