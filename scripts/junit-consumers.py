#!/usr/bin/env python3
"""Reads Accord's JUnit the way CI does (issue 22): junitparser and junit2html as real consumers.

1. Runs the shared corpus in the server lane (`--server embedded`), the client lane
   (`--client 'accord driver'`) and the kill matrix, and checks with junitparser that no
   (classname, name) pair repeats in any report and that the green server-lane run has no
   skipped testcase.
2. Serves the embedded server (`accord serve --fixtures`) behind a loopback proxy that reverses
   the verdicts of every push answer, runs the server lane against it, prints the console's
   first failure line, renders the JUnit with junit2html and checks that the page names I-5 for
   the failing testcase.

Every process it starts binds 127.0.0.1 and is stopped by pid. Exits 1 when a check fails.

    pip install junitparser junit2html
    scripts/junit-consumers.py [--accord .build/debug/accord] [--out DIR]
"""
import argparse, collections, html, http.client, http.server, json, os, re, signal, subprocess, sys, tempfile, threading

try:
    from junitparser import JUnitXml, Skipped, Failure
except ImportError:
    sys.exit("junit-consumers: needs junitparser (pip install junitparser)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "kizunasync-protocol")
SCENARIOS = os.path.join(ROOT, "..", "shared", "corpus-scenarios.json")
SECRET = "junit-consumers-secret"
signal.alarm(600)
ok = True


def check(condition, message):
    global ok
    print(("ok    " if condition else "FAILED ") + message)
    ok = ok and condition


def cases(path):
    xml = JUnitXml.fromfile(path)
    for suite in ([xml] if xml._tag == "testsuite" else list(xml)):
        for case in suite:
            yield case


def identities(path, lane, no_skips):
    pairs = collections.Counter()
    skipped = total = 0
    for case in cases(path):
        total += 1
        pairs[(case.classname, case.name)] += 1
        skipped += any(isinstance(result, Skipped) for result in case.result)
    repeated = {pair: count for pair, count in pairs.items() if count > 1}
    check(total > 0 and not repeated, f"{lane}: junitparser reads {total} testcases, {len(repeated)} repeated (classname, name) pairs, {skipped} skipped")
    for (classname, name), count in sorted(repeated.items())[:5]:
        print(f"        repeated {count}x: {classname} : {name}")
    if no_skips:
        check(skipped == 0, f"{lane}: a green run has no skipped testcase")


def run(accord, args, expect):
    result = subprocess.run([accord] + args, capture_output=True, text=True)
    if result.returncode != expect:
        print(result.stdout + result.stderr)
    check(result.returncode == expect, f"accord {' '.join(args[:3])} … exits {result.returncode}")
    return result.stdout


class Reversing(http.server.BaseHTTPRequestHandler):
    """Forwards to the embedded server; a push answer comes back with its verdicts reversed."""
    upstream = 0

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        connection = http.client.HTTPConnection("127.0.0.1", self.upstream, timeout=30)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection", "content-length")}
        connection.request(self.command, self.path, body=body if self.command == "POST" else None, headers=headers)
        answer = connection.getresponse()
        data = answer.read()
        if self.path.endswith("/rpc/push") and answer.status == 200:
            reply = json.loads(data)
            if len(reply.get("verdicts") or []) > 1:
                reply["verdicts"].reverse()
                data = json.dumps(reply, separators=(",", ":")).encode()
        self.send_response(answer.status)
        for key, value in answer.getheaders():
            if key.lower() not in ("content-length", "connection", "transfer-encoding", "date", "server"):
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        connection.close()

    do_GET = do_POST

    def log_message(self, *args):
        pass


def reversed_verdicts(accord, out):
    serve = subprocess.Popen(
        [accord, "serve", "--listen", "127.0.0.1:0", "--fixtures", "--jwt-secret", SECRET], stdout=subprocess.PIPE, text=True)
    try:
        match = re.search(r"127\.0\.0\.1:(\d+)", serve.stdout.readline())
        if not match:
            check(False, "accord serve started")
            return
        Reversing.upstream = int(match.group(1))
        proxy = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Reversing)
        threading.Thread(target=proxy.serve_forever, daemon=True).start()
        try:
            junit = os.path.join(out, "reversed.xml")
            stdout = run(accord, ["run", "--server", f"http://127.0.0.1:{proxy.server_port}", "--jwt-secret", SECRET, CORPUS,
                                  "--scenarios", SCENARIOS, "--junit", junit], expect=1)
        finally:
            proxy.shutdown()
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.wait(timeout=10)
    first = next((line for line in stdout.splitlines() if line.startswith("FAIL ")), "")
    print(f"        console: {first}")
    ids = re.search(r"I-5 verdict 0 answers (\S+), expected (\S+)", first)
    check(bool(ids) and ids.group(1) != ids.group(2), "the console's first failure line names I-5 and both mutation ids")
    failing = [case for case in cases(junit) if any(isinstance(r, Failure) for r in case.result)]
    check(all(sum(isinstance(r, Failure) for r in case.result) == 1 for case in failing), f"{len(failing)} failing testcases, one <failure> each")
    typed = [case for case in failing if case.result[0].type == "I-5"]
    check(bool(typed), f"junitparser: {len(typed)} failing testcases typed I-5")
    page = os.path.join(out, "reversed.html")
    subprocess.run(["junit2html", junit, page], check=True)
    text = open(page, encoding="utf-8").read()
    index = re.findall(r'<a href="#([0-9a-f]+)">\[F\] ([^<]*)</a>', text)
    entries = collections.Counter(html.unescape(label) for _, label in index)
    check(bool(index) and max(entries.values()) == 1, f"junit2html's failure index lists {len(index)} failing testcases, none twice")
    for anchor, label in index:
        section = text[text.index(f'<a id="{anchor}"></a>'):]
        shown = re.search(r"<th>Failed</th><td>([^<]*)</td>", section)
        shown = html.unescape(shown.group(1)) if shown else ""
        print(f"        junit2html: [F] {html.unescape(label)} → Failed: {shown[:110]}…")
        check(" I-5 " in shown, f"junit2html names I-5 for the failing testcase {html.unescape(label)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--accord", default=os.environ.get("ACCORD_BIN", os.path.join(ROOT, ".build", "debug", "accord")))
    parser.add_argument("--out", default=tempfile.mkdtemp(prefix="accord-junit-consumers-"))
    args = parser.parse_args()
    accord = os.path.abspath(args.accord)
    os.makedirs(args.out, exist_ok=True)
    driver = f"'{accord}' driver"
    lanes = [
        ("server lane", ["run", "--server", "embedded", CORPUS, "--scenarios", SCENARIOS], True),
        ("client lane", ["run", "--client", driver, CORPUS], False),
        ("kill matrix", ["run", "--client", driver, "--kill-matrix", CORPUS], False),
    ]
    for lane, command, no_skips in lanes:
        junit = os.path.join(args.out, lane.replace(" ", "-") + ".xml")
        summary = run(accord, command + ["--junit", junit], expect=0).strip().splitlines()[-1]
        print(f"        {summary}")
        identities(junit, lane, no_skips)
    reversed_verdicts(accord, args.out)
    print(f"reports in {args.out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
