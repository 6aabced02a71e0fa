#!/usr/bin/env python3
"""A correct server as teams have them in the wild: a thin adapter in front of `accord serve
--fixtures` whose fixture endpoint predates the capabilities call and whose sequence was never
reset. On loopback; prints "listening on http://127.0.0.1:PORT" once it answers.

    legacy-fixture-server.py --accord PATH --secret S

- GET /accord/fixtures/capabilities is answered 405 with `Allow: POST` (the endpoint takes only POST);
- a seed is forwarded with `next_seq` 100 higher than asked, and answered with a bare 204, so
  every seq it stamps runs 100 ahead of what the seed asked for, and it never says so;
- everything else is forwarded unchanged.
SIGTERM or SIGINT stops it and the `accord serve` it started.
"""
import argparse, http.server, json, re, signal, subprocess, sys, urllib.error, urllib.request

OFFSET = 100


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--accord", required=True)
    parser.add_argument("--secret", required=True)
    args = parser.parse_args()
    serve = subprocess.Popen([args.accord, "serve", "--listen", "127.0.0.1:0", "--jwt-secret", args.secret, "--fixtures"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    match = re.search(r"127\.0\.0\.1:(\d+)", serve.stdout.readline())
    if not match:
        serve.kill()
        sys.exit("accord serve printed no listening line")
    upstream = f"http://127.0.0.1:{match.group(1)}"

    class Adapter(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def answer(self, status, body=b"", headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def forward(self, method):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            if self.path == "/accord/fixtures/capabilities":
                error = {"code": "PGRST117", "details": None, "hint": None, "message": f"Unsupported HTTP method: {method}"}
                return self.answer(405, json.dumps(error).encode(), [("Allow", "POST"), ("Content-Type", "application/json")])
            seed = self.path == "/accord/fixtures/seed"
            if seed and body:
                document = json.loads(body)
                document["next_seq"] = str(int(document.get("next_seq") or "1") + OFFSET)
                body = json.dumps(document).encode()
            headers = {name: value for name, value in self.headers.items() if name.lower() not in ("host", "content-length", "connection")}
            request = urllib.request.Request(upstream + self.path, data=body, headers=headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    status, payload, kept = response.status, response.read(), response.getheaders()
            except urllib.error.HTTPError as error:
                status, payload, kept = error.code, error.read(), error.headers.items()
            if seed and 200 <= status < 300:
                return self.answer(204)
            kept = [(name, value) for name, value in kept if name.lower() not in ("content-length", "connection", "date", "server")]
            self.answer(status, payload, kept)

        def do_GET(self):
            self.forward("GET")

        def do_POST(self):
            self.forward("POST")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Adapter)

    def stop(*_):
        serve.send_signal(signal.SIGINT)
        try:
            serve.wait(timeout=10)
        except subprocess.TimeoutExpired:
            serve.kill()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    # A parent that spawned us from a thread with every signal blocked (a test runner) passes the mask on.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
