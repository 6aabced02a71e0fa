#!/usr/bin/env python3
"""What one hostile client can still cost `accord record` (and `accord serve`): issue 21.

Starts a small Python upstream and `accord record` in front of it on loopback, then measures:

  a  proxy CPU (user+sys from /proc/<pid>/stat) for a 30 MiB chunked upload (16 KiB chunks)
     against the same body with Content-Length; target: chunked <= 1.5x
  b  another client's request latency (p50/p99) while two clients send 1-byte chunks as fast as
     they can; target: p99 < 10 ms
  c  eight unfinished 32 MiB bodies plus three connections pipelining 8 MiB requests behind a
     slow one, all at once: the proxy's peak RSS (VmHWM) against its buffer budget
  d  with 512 idle sockets held open on record (its cap) and 256 on serve (its cap), the time a
     new client takes to be answered, and that it is answered (not 503); target: < 100 ms

Each proxy is a fresh process, stopped by its pid (SIGTERM) at the end of its part.

  bench/record-bounds.sh                     # builds accord (release), then runs this
  python3 bench/record-bounds.py --accord .build/release/accord [--parts abcd]
"""
import argparse
import http.client
import http.server
import os
import signal
import socket
import socketserver
import statistics
import subprocess
import sys
import tempfile
import threading
import time

MIB = 1 << 20
TICK = os.sysconf("SC_CLK_TCK")


class Upstream(http.server.BaseHTTPRequestHandler):
    """Reads each request's body whole and answers 200; /slow waits 3 s first."""

    protocol_version = "HTTP/1.1"
    # The head and the body go out in two writes: without this, Nagle holds the second until
    # the proxy's delayed ACK (40 ms).
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, text):
        body = text.encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path.startswith("/slow"):
            time.sleep(3)
        self.answer("ok")

    def do_POST(self):
        total = 0
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b""):
                        pass
                    break
                total += len(self.rfile.read(size))
                self.rfile.readline()
        else:
            left = int(self.headers.get("Content-Length", "0"))
            while left > 0:
                got = len(self.rfile.read(min(left, MIB)))
                if got == 0:
                    break
                total += got
                left -= got
        self.answer(f"read {total}")


class ThreadingServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, seconds=10):
    end = time.time() + seconds
    while time.time() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listening on {port}")


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def memory_kib(pid, key):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


class Proxy:
    """`accord record` (or `accord serve`) as a child process, stopped by its pid."""

    def __init__(self, accord, args, work):
        self.port = free_port()
        if args[0] == "record":
            args = args + ["--listen", f"127.0.0.1:{self.port}", "--out", os.path.join(work, f"rec-{self.port}.jsonl"), "--quiet"]
        else:
            args = args + ["--listen", f"127.0.0.1:{self.port}"]
        self.process = subprocess.Popen([accord] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.pid = self.process.pid
        wait_port(self.port)

    def stop(self):
        os.kill(self.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.kill(self.pid, signal.SIGKILL)
            self.process.wait()


def read_answer(sock):
    data = b""
    while True:
        try:
            piece = sock.recv(65536)
        except OSError:
            break
        if not piece:
            break
        data += piece
    return data


def status_of(data):
    parts = data.split(b" ", 2)
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None


def upload(port, size, chunked):
    sock = socket.create_connection(("127.0.0.1", port))
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    sock.sendall(f"POST /upload HTTP/1.1\r\nHost: b\r\n{framing}\r\nConnection: close\r\n\r\n".encode())
    piece = b"u" * (16 * 1024)
    sent = 0
    while sent < size:
        n = min(len(piece), size - sent)
        sock.sendall(b"%x\r\n" % n + piece[:n] + b"\r\n" if chunked else piece[:n])
        sent += n
    if chunked:
        sock.sendall(b"0\r\n\r\n")
    answer = read_answer(sock)
    sock.close()
    return status_of(answer)


def part_a(accord, upstream, work, runs):
    proxy = Proxy(accord, ["record", "--upstream", upstream], work)
    try:
        upload(proxy.port, MIB, False)
        costs = {False: [], True: []}
        for _ in range(runs):
            for chunked in (False, True):
                before = cpu_seconds(proxy.pid)
                status = upload(proxy.port, 30 * MIB, chunked)
                costs[chunked].append(cpu_seconds(proxy.pid) - before)
                if status != 200:
                    print(f"  upload answered {status}", file=sys.stderr)
        length, chunked = statistics.median(costs[False]), statistics.median(costs[True])
        print(f"a  30 MiB upload, proxy CPU (user+sys, median of {runs}): Content-Length {length:.2f} s, "
              f"chunked (16 KiB chunks) {chunked:.2f} s, ratio {chunked / max(length, 1 / TICK):.2f} (target <= 1.5)")
        print(f"   every run: Content-Length {['%.2f' % c for c in costs[False]]}, chunked {['%.2f' % c for c in costs[True]]}")
    finally:
        proxy.stop()


def one_byte_chunks(port, seconds):
    """A client sending 1-byte chunks, one send each, for `seconds` (run in its own process)."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.sendall(b"POST /drip HTTP/1.1\r\nHost: b\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
    end = time.time() + seconds
    chunks = 0
    while time.time() < end:
        sock.send(b"1\r\nx\r\n")
        chunks += 1
    sock.sendall(b"0\r\n\r\n")
    print(f"{chunks} {status_of(read_answer(sock))}")


def latencies(port, seconds):
    connection = http.client.HTTPConnection("127.0.0.1", port)
    times = []
    end = time.time() + seconds
    while time.time() < end:
        begin = time.perf_counter()
        connection.request("GET", "/ping")
        response = connection.getresponse()
        response.read()
        times.append(time.perf_counter() - begin)
    connection.close()
    times.sort()
    return times


def describe(times):
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1000
    return f"p50 {p(0.5):.2f} ms, p99 {p(0.99):.2f} ms, max {times[-1] * 1000:.1f} ms over {len(times)} requests"


def part_b(accord, upstream, work):
    proxy = Proxy(accord, ["record", "--upstream", upstream], work)
    try:
        quiet = latencies(proxy.port, 2)
        before = cpu_seconds(proxy.pid)
        drips = [subprocess.Popen([sys.executable, __file__, "--drip", str(proxy.port), "6"], stdout=subprocess.PIPE, text=True)
                 for _ in range(2)]
        time.sleep(0.5)
        loaded = latencies(proxy.port, 4.5)
        results = [drip.communicate(timeout=30)[0].split() for drip in drips]
        cpu = cpu_seconds(proxy.pid) - before
        print(f"b  another client's latency, alone: {describe(quiet)}")
        print(f"   with two clients sending 1-byte chunks: {describe(loaded)} (target p99 < 10 ms)")
        print(f"   the two sent {', '.join(r[0] for r in results)} chunks (answered {', '.join(r[1] for r in results)}); "
              f"proxy CPU over those 6 s: {cpu:.2f} s")
    finally:
        proxy.stop()


def part_c(accord, upstream, work, budget, unfinished_count=8, pipelining_count=3):
    # --budget 0 passes no flag: for a build from before --buffer-budget.
    proxy = Proxy(accord, ["record", "--upstream", upstream] + (["--buffer-budget", str(budget)] if budget else []), work)
    sockets, statuses, lock = [], [], threading.Lock()

    def unfinished():
        sock = socket.create_connection(("127.0.0.1", proxy.port))
        sockets.append(sock)
        size = 32 * MIB
        sock.sendall(f"POST /big HTTP/1.1\r\nHost: b\r\nContent-Length: {size}\r\n\r\n".encode())
        piece = b"c" * MIB
        try:
            for _ in range(31):
                sock.sendall(piece)
            sock.sendall(piece[:-1])
            sock.settimeout(8)
            answer = sock.recv(100)
        except OSError:
            answer = b""
        with lock:
            statuses.append(status_of(answer) or "none (held)")

    def pipelining():
        sock = socket.create_connection(("127.0.0.1", proxy.port))
        sockets.append(sock)
        request = f"POST /p HTTP/1.1\r\nHost: b\r\nContent-Length: {8 * MIB}\r\n\r\n".encode() + b"p" * (8 * MIB)
        try:
            sock.sendall(b"GET /slow HTTP/1.1\r\nHost: b\r\n\r\n")
            for _ in range(32):
                sock.sendall(request)
        except OSError:
            pass

    try:
        status_of_first = upload(proxy.port, 1024, False)
        baseline = memory_kib(proxy.pid, "VmRSS")
        threads = [threading.Thread(target=unfinished, daemon=True) for _ in range(unfinished_count)]
        threads += [threading.Thread(target=pipelining, daemon=True) for _ in range(pipelining_count)]
        for thread in threads:
            thread.start()
        samples = []
        end = time.time() + 8
        while time.time() < end:
            samples.append(memory_kib(proxy.pid, "VmRSS"))
            time.sleep(0.1)
        peak = memory_kib(proxy.pid, "VmHWM")
        with lock:
            answered = sorted(str(s) for s in statuses)
        answered += ["held, no answer yet"] * (unfinished_count - len(answered))
        print(f"c  {unfinished_count} unfinished 32 MiB bodies, {pipelining_count} pipelining connections, "
              f"budget {f'{budget / MIB:.0f} MiB' if budget else 'none'}; proxy RSS before {baseline / 1024:.0f} MiB, peak (VmHWM) {peak / 1024:.0f} MiB, "
              f"peak less the idle RSS {(peak - baseline) / 1024:.0f} MiB (target: under the budget)")
        print(f"   RSS at the end {samples[-1] / 1024:.0f} MiB; the unfinished bodies were answered {answered}; "
              f"first request {status_of_first}")
    finally:
        for sock in sockets:
            sock.close()
        proxy.stop()


def new_clients(port, count, path):
    times, codes = [], []
    for _ in range(count):
        begin = time.perf_counter()
        sock = socket.create_connection(("127.0.0.1", port), timeout=70)
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: b\r\nConnection: close\r\n\r\n".encode())
        codes.append(status_of(read_answer(sock)))
        times.append(time.perf_counter() - begin)
        sock.close()
    return sorted(times), codes


def part_d(accord, upstream, work):
    for name, args, idle in (("record", ["record", "--upstream", upstream], 512),
                             ("serve", ["serve", "--jwt-secret", "bench-secret"], 256)):
        proxy = Proxy(accord, args, work)
        held = []
        try:
            for _ in range(idle):
                held.append(socket.create_connection(("127.0.0.1", proxy.port)))
            time.sleep(0.5)
            times, codes = new_clients(proxy.port, 20, "/ping")
            print(f"d  {name}, {idle} idle sockets held: 20 new clients one after another, "
                  f"median {statistics.median(times) * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms (target < 100 ms); "
                  f"statuses {sorted(set(codes))}, 503s: {codes.count(503)}")
        finally:
            for sock in held:
                sock.close()
            proxy.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--accord")
    parser.add_argument("--parts", default="abcd")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--budget", type=int, default=256 * MIB, help="part c: --buffer-budget (0: pass none)")
    parser.add_argument("--unfinished", type=int, default=8, help="part c: unfinished 32 MiB bodies")
    parser.add_argument("--pipelining", type=int, default=3, help="part c: pipelining connections")
    parser.add_argument("--drip", nargs=2, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.drip:
        return one_byte_chunks(int(options.drip[0]), float(options.drip[1]))
    if not options.accord:
        raise SystemExit("--accord <binary> is required")
    upstream_port = free_port()
    server = ThreadingServer(("127.0.0.1", upstream_port), Upstream)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    upstream = f"http://127.0.0.1:{upstream_port}"
    cpu = open("/proc/cpuinfo").read().split("model name")[1].split(":", 1)[1].split("\n")[0].strip()
    print(f"machine: {os.cpu_count()} cores (nproc), kernel {os.uname().release}, {cpu}")
    with tempfile.TemporaryDirectory(prefix="accord-bounds.") as work:
        if "a" in options.parts:
            part_a(options.accord, upstream, work, options.runs)
        if "b" in options.parts:
            part_b(options.accord, upstream, work)
        if "c" in options.parts:
            part_c(options.accord, upstream, work, options.budget, options.unfinished, options.pipelining)
        if "d" in options.parts:
            part_d(options.accord, upstream, work)
    server.shutdown()


if __name__ == "__main__":
    main()
