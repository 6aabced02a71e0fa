#!/usr/bin/env python3
"""Where the first streamed byte's time goes, phase by phase, from the scheduler's own record.

bench/record-proxy.sh gives one figure for the stream's first byte (TTFB). This script splits it.
It starts the shared harness's upstream, `accord record` and bench/hop-relay.c's byte-copying
relay on loopback. Then it fetches /stream through each target (and directly) under
`perf sched record`, and follows each fetch's wake-ups:

  client send     the client starts the request .. it wakes the proxy (or the upstream)
  proxy request   the proxy is woken by the client .. it wakes the upstream; in brackets, the
                  part of it the proxy spent waiting for a CPU
  upstream        the upstream is woken .. it wakes the proxy with the answer's first bytes
  proxy 1st byte  the proxy is woken by the upstream .. it wakes the client (and its wait)
  client waits    the client is woken .. it is given a CPU (scheduling delay); a tally after
                  the table says what that CPU ran meanwhile: the upstream, the proxy,
                  nothing (idle) or another task
  client reads    the client runs .. it has the first line

A fetch where an expected wake-up or switch is missing (the woken side was already running, or
perf did not record the switch) is left out and counted; "TTFB, every fetch" is the client's
own figure over all fetches. Needs perf (linux-perf) and root or perf_event_paranoid <= -1. Stops by itself.

  bench/ttfb-phases.sh                      # builds accord and the relay, then runs this
  python3 bench/ttfb-phases.py --accord .build/release/accord --relay /tmp/hop-relay
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import http.client

HERE = os.path.dirname(os.path.abspath(__file__))
UPSTREAM_PY = os.path.join(HERE, "..", "..", "shared", "bench", "upstream.py")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(port, count, lines, out):
    """Fetches /stream `count` times on one keep-alive connection, like the harness's verify."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    path = f"/stream?lines={lines}&per_chunk=1"
    rows = []
    for index in range(count + 3):
        t0 = time.monotonic()
        conn.request("GET", path)
        response = conn.getresponse()
        response_line = response.readline()
        t1 = time.monotonic()
        response.read()
        if index >= 3 and response.status == 200 and response_line:
            rows.append((t0, t1))
    with open(out, "w") as f:
        json.dump({"pid": os.getpid(), "fetches": rows}, f)


EVENT = re.compile(r"^\s*\S.*?\s(\d+)/(\d+)\s+\[\d+\]\s+([\d.]+):\s+sched:(sched_waking|sched_switch):\s(.*)$")


def sched_events(data):
    """(time, kind, waker pid, waker tid, wakee or next tid, previous tid) from `perf script`."""
    text = subprocess.run(["perf", "script", "-i", data, "-F", "comm,pid,tid,cpu,time,event,trace"],
                          capture_output=True, text=True, check=True).stdout
    events = []
    for line in text.splitlines():
        m = EVENT.match(line)
        if not m:
            continue
        pid, tid, when, kind, trace = int(m[1]), int(m[2]), float(m[3]), m[4], m[5]
        if kind == "sched_waking":
            target, previous = re.search(r"\bpid=(\d+)", trace), None
        else:
            target, previous = re.search(r"next_pid=(\d+)", trace), re.search(r"prev_pid=(\d+)", trace)
        if target:
            events.append((when, kind, pid, tid, int(target[1]), int(previous[1]) if previous else None))
    return events


def threads_of(pid):
    try:
        return {int(t) for t in os.listdir(f"/proc/{pid}/task")}
    except OSError:
        return {pid}


def phases(events, fetches, client, proxy, upstream):
    """Per fetch, the six phases, the TTFB and the proxy's two waits for a CPU, in ms.

    A fetch whose wake-ups are not all found is left out and counted; a wait whose switch is not
    found is None.
    """
    out, missing = [], 0

    def first(start, end, test):
        for e in events:
            if e[0] >= start and e[0] <= end and test(e):
                return e[0]
        return None

    def switch_to(tids, woken, end):
        # The CPUs' clocks may differ by microseconds: the switch to a task can carry a time a
        # little before the wake-up that caused it, but never before the task slept.
        slept = max((ev[0] for ev in events if ev[1] == "sched_switch" and ev[5] in tids and ev[0] <= woken), default=0)
        start = max(slept, woken - 0.0003)
        return next((ev for ev in events if start <= ev[0] <= end and ev[1] == "sched_switch" and ev[4] in tids), None)

    def switched_in(tids, woken, end):
        switch = switch_to(tids, woken, end)
        return None if switch is None else max(switch[0], woken)

    def waking(waker, wakee):
        return lambda e: e[1] == "sched_waking" and e[2] in waker and e[4] in wakee

    for t0, t1 in fetches:
        waits = [None, None]
        if proxy is None:
            # No proxy: its two phases are empty, and the upstream's runs until it wakes the client.
            a = first(t0, t1, waking({client}, upstream))
            b = a
            d = a and first(a, t1, waking(upstream, {client}))
            c = d
        else:
            a = first(t0, t1, waking({client}, proxy))
            b = a and first(a, t1, waking(proxy, upstream))
            c = b and first(b, t1, waking(upstream, proxy))
            d = c and first(c, t1, waking(proxy, {client}))
            if b is not None and d is not None:
                ran = [switched_in(proxy, a, b), switched_in(proxy, c, d)]
                waits = [None if r is None else (r - w) * 1e3 for r, w in zip(ran, (a, c))]
        e = d and switched_in({client}, d, t1)
        if not all(x is not None for x in (a, b, c, d, e)):
            missing += 1
            continue
        marks = [t0, a, b, c, d, e, t1]
        out.append([(marks[i + 1] - marks[i]) * 1e3 for i in range(6)] + [(t1 - t0) * 1e3] + waits
                   + [behind(switch_to({client}, d, t1)[5], upstream, proxy)])
    return out, missing


def behind(previous, upstream, proxy):
    """What the client's CPU ran while the client waited: the upstream, the proxy, idle, other."""
    if previous is None:
        return "unknown"
    if previous == 0:
        return "idle"
    if previous in upstream:
        return "upstream"
    if proxy is not None and previous in proxy:
        return "proxy"
    return "other"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--accord", help="the accord binary (omit to leave accord out)")
    ap.add_argument("--relay", help="the hop-relay binary (omit to leave the relay out)")
    ap.add_argument("--fetches", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--lines", type=int, default=10000)
    ap.add_argument("--fetch", nargs=2, metavar=("PORT", "OUT"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.fetch:
        return fetch(int(a.fetch[0]), a.fetches, a.lines, a.fetch[1])

    work = tempfile.mkdtemp(prefix="ttfb-phases-")
    procs = []

    def start(args):
        p = subprocess.Popen(["timeout", "600"] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
        procs.append(p)
        return p

    def service_pid(p):
        # `timeout` runs the command as its child: measure the child.
        for _ in range(100):
            try:
                children = open(f"/proc/{p.pid}/task/{p.pid}/children").read().split()
            except OSError:
                children = []
            if children:
                return int(children[0])
            time.sleep(0.02)
        sys.exit("ttfb-phases: a service did not start")

    try:
        up_port = free_port()
        upstream = service_pid(start([sys.executable, UPSTREAM_PY, "--port", str(up_port), "--max-seconds", "590"]))
        targets = [("direct", up_port, None)]
        if a.relay:
            port = free_port()
            targets.append(("hop-relay", port, service_pid(start([a.relay, str(port), str(up_port), "590"]))))
        if a.accord:
            port = free_port()
            pid = service_pid(start([a.accord, "record", "--upstream", f"http://127.0.0.1:{up_port}",
                                     "--listen", f"127.0.0.1:{port}", "--out", os.path.join(work, "accord.jsonl"),
                                     "--quiet"]))
            targets.append(("accord-record", port, pid))
        for name, port, _ in targets:
            for _ in range(100):
                try:
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                    c.request("GET", "/health")
                    if c.getresponse().status == 200:
                        break
                except OSError:
                    time.sleep(0.05)
            else:
                sys.exit(f"ttfb-phases: {name} does not answer /health")
        results = {name: ([], 0, []) for name, _, _ in targets}
        for round_index in range(a.rounds):
            for name, port, pid in targets:
                data = os.path.join(work, f"{name}-{round_index}.data")
                out = os.path.join(work, f"{name}-{round_index}.json")
                recorded = subprocess.run(
                    ["perf", "sched", "record", "-m", "4096", "-k", "CLOCK_MONOTONIC", "-o", data, "--",
                     sys.executable, os.path.abspath(__file__), "--fetches", str(a.fetches),
                     "--lines", str(a.lines), "--fetch", str(port), out],
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                if recorded.returncode != 0 or not os.path.exists(out):
                    tail = recorded.stderr.strip().splitlines()[-3:]
                    sys.exit(f"ttfb-phases: perf sched record failed for {name} (exit {recorded.returncode}); "
                             "it needs root or kernel.perf_event_paranoid <= -1: " + " / ".join(tail))
                with open(out) as f:
                    doc = json.load(f)
                rows, missing = phases(sched_events(data), doc["fetches"], doc["pid"],
                                       threads_of(pid) if pid else None, threads_of(upstream))
                kept, lost, every = results[name]
                results[name] = (kept + rows, lost + missing, every + [(t1 - t0) * 1e3 for t0, t1 in doc["fetches"]])
                os.remove(data)
        print(f"/stream of {a.lines} lines, {a.fetches} fetches x {a.rounds} rounds per target; "
              f"medians in ms ({os.cpu_count()} CPUs)")
        header = ("| target | client send | proxy request [waiting for a CPU] | upstream "
                  "| proxy 1st byte [waiting for a CPU] | client waits | client reads | TTFB "
                  "| TTFB, every fetch | fetches (left out) |")
        print(header)
        print("|" + "---|" * 10)

        def median(rows, index):
            values = [r[index] for r in rows if r[index] is not None]
            return statistics.median(values) if values else None

        def cell(value):
            return "-" if value is None else f"{value:.3f}"

        for name, (rows, lost, every) in results.items():
            overall = cell(statistics.median(every) if every else None)
            med = [median(rows, i) for i in range(9)]
            request, first_byte = cell(med[1]), cell(med[3])
            if name != "direct":
                request, first_byte = f"{request} [{cell(med[7])}]", f"{first_byte} [{cell(med[8])}]"
            cells = [cell(med[0]), request, cell(med[2]), first_byte, cell(med[4]), cell(med[5]), cell(med[6])]
            print(f"| {name} | " + " | ".join(cells) + f" | {overall} | {len(rows)} ({lost}) |")
        print()
        print("While the client waited for a CPU, that CPU ran (fetches, median wait in ms):")
        for name, (rows, _, _) in results.items():
            kinds = {}
            for r in rows:
                kinds.setdefault(r[9], []).append(r[4])
            parts = [f"{kind} {len(w)} ({statistics.median(w):.3f})"
                     for kind, w in sorted(kinds.items(), key=lambda kv: -len(kv[1]))]
            print(f"- {name}: " + ", ".join(parts))
    finally:
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except OSError:
                pass
        for p in procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
