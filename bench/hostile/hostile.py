#!/usr/bin/env python3
"""Attacks on a faan binary (CI: the debug build; the figures in
bench/hostile.md: the release one), on 127.0.0.1, under an address-space
cap (`ulimit -v`). Standard library only.

Each attack gets a fresh server with the defaults (two workers, as the
production pod; the probes on their own address), so its peak resident
memory (VmHWM in /proc/PID/status) is the attack's own; each asserts that
peak stays under the pod's 192 MiB limit and that /healthz still answers
200 afterwards. The connection attacks also probe /healthz on the admin
address every 20 ms throughout, and assert every probe answered 200
within 250 ms:

  amplification  a ledger of four 32-character names and 2,000 draws
                 (and 2,000 wins), eight at once, three rounds
  stalled        100 connections that each send 4,000 KiB of a ledger
                 body and stall until the body timeout
  inline         a flood of distinct inline ruleset documents to /v1/score
  starvation     four clients loop the most expensive request of each
                 endpoint (ledger, batch, compare, waits) while a probe
                 times /healthz: its p99 must stay under 250 ms
  brotli         64, then 256, browser-like clients (`Accept-Encoding:
                 gzip, deflate, br`) loop over the page's files,
                 /openapi.json, /docs and a ruleset's chart
  pipelined      8 connections each pipeline 100,000 `GET /healthz`, and
                 16 each 5,000 `GET /openapi.json`, and never read
  blocked        128 connections each pipeline 12 `GET /openapi.json` and
                 never read: after the write timeout (10 s) the API answers
                 /healthz again; then four never read a 4 MB ledger
                 answer while a client posts that ledger: 503 while they
                 hold the byte budget, 200 after the write timeout
  idle           140 idle connections and 140 sending their headers a byte
                 a second, past the API's 128 connections
  slow_log       at log level info, eight clients loop GET on a 60 KB path
                 while standard error is read at 64 KiB a second, then on
                 a fresh server while it is never read

`--worst` instead measures each endpoint's worst request (answer bytes,
server time, peak RSS) and prints the README's table rows.

Usage: bench/hostile/hostile.py target/release/faan [--worst] [--only NAME]
"""

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time

POD_LIMIT = 192 * 2**20
# Address space allowed to the server: generous beside its resident limit
# (each thread reserves stack and malloc arenas), but a runaway allocation
# like the 10 GB one fails instead of swapping the machine.
ADDRESS_CAP_KIB = 1024 * 1024
P99_LIMIT_MS = 250
STARVE_S = 10
NAMES = ["A" * 31 + c for c in "1234"]  # 32 characters each: the cap


def log(msg):
    print(f"[hostile {time.strftime('%H:%M:%S')}] {msg}", flush=True)


failures = []


def check(ok, msg):
    log(("ok: " if ok else "FAIL: ") + msg)
    if not ok:
        failures.append(msg)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    def __init__(self, binary, *args):
        self.port = free_port()
        self.admin = free_port()
        cmd = (f'ulimit -v {ADDRESS_CAP_KIB} && exec "$0" serve --addr 127.0.0.1:{self.port} '
               f'--admin-addr 127.0.0.1:{self.admin} --workers 2 --log-level warn "$@"')
        self.proc = subprocess.Popen(["bash", "-c", cmd, binary, *args])
        for _ in range(100):
            if self.get("/healthz")[0] == 200:
                return
            time.sleep(0.05)
        raise SystemExit("the server did not start")

    def status(self, field):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
        return 0

    def peak(self):
        return self.status("VmHWM")

    def get(self, path, timeout=5.0, port=None):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port or self.port, timeout=timeout)
            c.request("GET", path)
            r = c.getresponse()
            r.read()
            c.close()
            return r.status, None
        except OSError as e:
            return None, str(e)

    def post(self, path, body, conn=None, timeout=60.0):
        """(status, answer bytes, seconds); `conn` is reused when given."""
        own = conn is None
        c = conn or http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        t = time.perf_counter()
        try:
            c.request("POST", path, body=body, headers={"Content-Type": "application/json"})
            r = c.getresponse()
            data = r.read()
            status = r.status
        except OSError:
            c.close()
            return None, 0, time.perf_counter() - t
        if own or r.getheader("connection", "") == "close":
            c.close()
        return status, len(data), time.perf_counter() - t

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def mib(n):
    return f"{n / 2**20:.1f} MiB"


# --- request bodies -------------------------------------------------------

WIN = {"result": "win", "winners": [{"player": NAMES[0],
       "hand": {"tiles": "77755p", "winning_tile": "5p", "melds": [
           {"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999s"}, {"kind": "pung", "tiles": "222p"}]},
       "context": {"win_by": "discard", "discarder": NAMES[1]}}]}
# Three winners on one discard: the most each ledger hand can answer.
TRIPLE = {"result": "win", "winners": [
    {"player": NAMES[1], "hand": {"tiles": "123456789m123p55s", "winning_tile": "5s"},
     "context": {"win_by": "discard", "discarder": NAMES[0]}},
    {"player": NAMES[2], "hand": {"tiles": "234567p888s345s99m", "winning_tile": "5s"},
     "context": {"win_by": "discard", "discarder": NAMES[0]}},
    {"player": NAMES[3], "hand": {"tiles": "111222333z66z456s", "winning_tile": "5s"},
     "context": {"win_by": "discard", "discarder": NAMES[0]}}]}


def ledger(hand, n=2000):
    # min_faan 0: every winner may declare.
    return json.dumps({"ruleset": "hkma", "house_rules": {"min_faan": 0}, "players": NAMES,
                       "hands": [hand] * n}).encode()


# A hand of many readings (pure one suit, runs and pungs both ways).
MANY = {"tiles": "11122233344455m", "winning_tile": "5m"}
CTX = {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}


def score(i=None, hand=MANY):
    body = {"ruleset": "hkma", "hand": hand, "context": CTX}
    if i is not None:  # distinct house rules: no cache hit
        body["house_rules"] = {"stake": i + 1}
    return body


def batch(seed=0, n=1000):
    return json.dumps({"requests": [score(seed * n + i) for i in range(n)]}).encode()


def compare(seed=0, n=32):
    # 32 distinct documents (the cap), each resolved and scored.
    docs = [{"extends": "hkma", "id": f"c{seed}-{i}", "name": f"c{seed}-{i}"} for i in range(n)]
    return json.dumps({"rulesets": docs, "hand": MANY, "context": CTX}).encode()


WAITS = json.dumps({"ruleset": "hkma", "hand": {"tiles": "1112345678999m"},
                    "context": {"seat_wind": "south", "round_wind": "east"}}).encode()


# --- attacks --------------------------------------------------------------

def parallel(n, fn):
    out = [None] * n
    ts = [threading.Thread(target=lambda i=i: out.__setitem__(i, fn(i))) for i in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return out


def amplification(binary):
    srv = Server(binary)
    try:
        for name, hand in (("draws", {"result": "draw"}), ("wins", TRIPLE)):
            body = ledger(hand)
            sizes = set()
            statuses = {}
            for _ in range(3):
                for st, n, _t in parallel(8, lambda i: srv.post("/v1/ledger", body)):
                    statuses[st] = statuses.get(st, 0) + 1
                    if st == 200:
                        sizes.add(n)
            log(f"amplification {name}: body {len(body)} B, answers {sorted(sizes)} B, statuses {statuses}")
            check(200 in statuses, f"amplification {name}: some ledgers answered")
        peak = srv.peak()
        check(peak < POD_LIMIT, f"amplification: peak RSS {mib(peak)} < 192 MiB")
        check(srv.get("/healthz")[0] == 200, "amplification: /healthz answers after")
    finally:
        srv.stop()


def stalled(binary):
    srv = Server(binary)
    try:
        body = ledger(TRIPLE, 2000)
        declared = 4000 * 1024
        part = (body * (declared // len(body) + 1))[:declared - 1]
        socks = []
        answered = {}

        def open_one(i):
            s = socket.create_connection(("127.0.0.1", srv.port), timeout=30)
            s.sendall(b"POST /v1/ledger HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                      + f"Content-Length: {declared}\r\n\r\n".encode())
            try:
                s.sendall(part)  # all but the last byte, then silence
            except OSError:
                pass  # refused at once (503) and closed
            return s

        t0 = time.time()
        socks = parallel(100, open_one)
        time.sleep(2)
        mid = srv.status("VmRSS")
        health = srv.get("/healthz")[0]
        for s in socks:
            s.settimeout(15)
            try:
                head = s.recv(64).decode("latin-1")
                code = head[9:12] if head.startswith("HTTP/1.1") else "closed"
            except OSError:
                code = "closed"
            answered[code] = answered.get(code, 0) + 1
            s.close()
        log(f"stalled: 100 bodies of 4,000 KiB: answers {answered} within {time.time() - t0:.1f} s; RSS while held {mib(mid)}")
        check(health == 200, "stalled: /healthz answers while they are held")
        peak = srv.peak()
        check(peak < POD_LIMIT, f"stalled: peak RSS {mib(peak)} < 192 MiB")
        check(srv.get("/healthz")[0] == 200, "stalled: /healthz answers after")
    finally:
        srv.stop()


def slow_log(binary, seconds=8, clients=8, path_bytes=60_000):
    """Standard error read slowly (64 KiB/s) and then not at all, at log
    level info, while clients loop GET on a 60 KB path: the log queue holds
    at most --log-queue-bytes (the default 4 MiB while read slowly; 128 KiB
    when never read, so that a debug build, which answers about 1,400 of
    these in 8 s against a release build's tens of thousands, fills it too)
    and each line repeats 256 bytes of the path, so the peak stays far under
    the limit and the rest is dropped and counted
    (faan_log_lines_dropped_total); /healthz on the admin address answers
    every probe within 250 ms throughout."""

    class LogServer(Server):
        def __init__(self, binary, queue):
            self.port = free_port()
            self.admin = free_port()
            cmd = (f'ulimit -v {ADDRESS_CAP_KIB} && exec "$0" serve --addr 127.0.0.1:{self.port} '
                   f'--admin-addr 127.0.0.1:{self.admin} --workers 2 --log-level info{queue}')
            self.proc = subprocess.Popen(["bash", "-c", cmd, binary], stderr=subprocess.PIPE)
            for _ in range(100):
                if self.get("/healthz")[0] == 200:
                    return
                time.sleep(0.05)
            raise SystemExit("the server did not start")

    request = f"GET /{'a' * path_bytes} HTTP/1.1\r\nHost: t\r\n\r\n".encode()
    for reader in ("slow", "stalled"):
        srv = LogServer(binary, "" if reader == "slow" else " --log-queue-bytes 131072")
        stop = time.time() + seconds
        done = threading.Event()

        def drain():  # 64 KiB a second, until the attack ends
            while reader == "slow" and not done.is_set():
                if not srv.proc.stderr.read1(65536):
                    return
                time.sleep(1)

        def loop(_i):
            n = 0
            try:
                s = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
                f = s.makefile("rb")
                while time.time() < stop and n < 50_000:
                    s.sendall(request)
                    length = 0
                    while (line := f.readline()) not in (b"\r\n", b""):
                        if line.lower().startswith(b"content-length:"):
                            length = int(line.split(b":")[1])
                    f.read(length)
                    n += 1
                s.close()
            except OSError:
                pass
            return n

        try:
            probe = AdminProbe(srv, seconds)
            t = threading.Thread(target=drain, daemon=True)
            t.start()
            sent = sum(parallel(clients, loop))
            probe.done(f"{reader} log")
            done.set()
            health = srv.get("/healthz")[0]
            c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
            c.request("GET", "/metrics")
            metrics = c.getresponse().read().decode()
            c.close()
            dropped = next((int(float(l.split()[1])) for l in metrics.splitlines()
                            if l.startswith("faan_log_lines_dropped_total ")), 0)
            peak = srv.peak()
            log(f"{reader} log: {sent} requests for a {path_bytes // 1000} KB path, "
                f"{dropped} lines dropped, peak RSS {mib(peak)}")
            check(peak < POD_LIMIT, f"{reader} log: peak RSS {mib(peak)} < 192 MiB")
            check(health == 200, f"{reader} log: /healthz answers after")
            if reader == "stalled":
                check(dropped > 0, f"{reader} log: dropped lines counted ({dropped})")
        finally:
            srv.proc.kill()  # its standard error is not read: no orderly exit to wait for
            srv.proc.wait()


def inline(binary, count=30000, clients=8, limit_s=40):
    srv = Server(binary)
    try:
        t0 = time.time()
        statuses = {}
        lock = threading.Lock()

        def client(k):
            c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
            for i in range(k, count, clients):
                if time.time() - t0 > limit_s:
                    break
                body = json.dumps({"ruleset": {"extends": "hkma", "id": f"flood-{i}", "name": f"x{i}"},
                                   "hand": MANY, "context": CTX}).encode()
                st, _n, _t = srv.post("/v1/score", body, conn=c)
                if st is None:
                    c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
                with lock:
                    statuses[st] = statuses.get(st, 0) + 1
            c.close()

        parallel(clients, client)
        log(f"inline: {sum(statuses.values())} distinct documents in {time.time() - t0:.1f} s: {statuses}")
        check(statuses.get(200, 0) > 0, "inline: documents answered")
        peak = srv.peak()
        check(peak < POD_LIMIT, f"inline: peak RSS {mib(peak)} < 192 MiB")
        check(srv.get("/healthz")[0] == 200, "inline: /healthz answers after")
    finally:
        srv.stop()


def starvation(binary):
    srv = Server(binary)
    try:
        stop = time.time() + STARVE_S
        # Bodies built before the clock starts (Python's own JSON work would
        # otherwise be what the probe measures); the probe is its own process.
        bodies = {
            "ledger": ("/v1/ledger", [ledger(TRIPLE, 2000)]),
            "batch": ("/v1/score/batch", [batch(k) for k in range(40)]),
            "compare": ("/v1/compare", [compare(k) for k in range(200)]),
            "waits": ("/v1/waits", [WAITS]),
        }
        probe = subprocess.Popen([sys.executable, __file__, "x", "--probe", str(srv.port), str(STARVE_S)],
                                 stdout=subprocess.PIPE)
        stop = time.time() + STARVE_S
        counts = {}
        lock = threading.Lock()

        def client(name):
            path, made = bodies[name]
            k = 0
            while time.time() < stop:
                st, _n, _t = srv.post(path, made[k % len(made)])
                k += 1
                with lock:
                    counts.setdefault(name, {}).setdefault(st, 0)
                    counts[name][st] += 1

        threads = [threading.Thread(target=client, args=(n,)) for n in bodies for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        lat = [tuple(x) for x in json.loads(probe.communicate()[0])]
        heavy = bodies
        ms = sorted(l for l, _ in lat)
        bad = [st for _, st in lat if st != 200]
        p50 = ms[len(ms) // 2]
        p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        log(f"starvation: 4 clients each of {', '.join(heavy)} for {STARVE_S} s: {counts}")
        log(f"starvation: /healthz {len(ms)} probes, p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms, not 200: {len(bad)}")
        check(not bad, "starvation: every /healthz probe answered 200")
        check(p99 < P99_LIMIT_MS, f"starvation: /healthz p99 {p99:.1f} ms < {P99_LIMIT_MS} ms")
        peak = srv.peak()
        check(peak < POD_LIMIT, f"starvation: peak RSS {mib(peak)} < 192 MiB")
    finally:
        srv.stop()


def probe_main(port, seconds):
    """/healthz on a new connection every 20 ms: [(ms, status)] as JSON."""
    srv = Server.__new__(Server)
    srv.port = port
    stop = time.time() + seconds
    lat = []
    while time.time() < stop:
        t = time.perf_counter()
        st, _ = srv.get("/healthz", timeout=5)
        lat.append(((time.perf_counter() - t) * 1000, st))
        time.sleep(0.02)
    print(json.dumps(lat))


# --- connection attacks ---------------------------------------------------

class AdminProbe:
    """/healthz on the admin address every 20 ms, in a process of its own,
    for `seconds`; `done()` checks every probe answered 200 within 250 ms."""

    def __init__(self, srv, seconds):
        self.proc = subprocess.Popen([sys.executable, __file__, "x", "--probe", str(srv.admin), str(seconds)],
                                     stdout=subprocess.PIPE)

    def done(self, name):
        lat = [tuple(x) for x in json.loads(self.proc.communicate()[0])]
        ms = sorted(l for l, _ in lat)
        bad = [st for _, st in lat if st != 200]
        log(f"{name}: admin /healthz {len(ms)} probes, p50 {ms[len(ms) // 2]:.1f} ms, max {ms[-1]:.1f} ms, not 200: {len(bad)}")
        check(lat and not bad, f"{name}: every admin /healthz probe answered 200")
        check(lat and ms[-1] < P99_LIMIT_MS, f"{name}: every admin /healthz probe within {P99_LIMIT_MS} ms (max {ms[-1]:.1f} ms)")


def narrow_socket(port, timeout=5.0):
    """A client socket with a 4 KiB receive buffer and a 16 KiB send
    buffer: the kernel holds little of what the server writes to a client
    that does not read, or of what the client sends it."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16384)
    s.settimeout(timeout)
    s.connect(("127.0.0.1", port))
    return s


def send_for(s, data, seconds):
    """Sends as much of `data` as the server takes within `seconds`."""
    s.settimeout(0.2)
    sent, until = 0, time.time() + seconds
    view = memoryview(data)
    while sent < len(data) and time.time() < until:
        try:
            sent += s.send(view[sent:sent + 65536])
        except socket.timeout:
            continue
        except OSError:
            break
    return sent


BROWSER_PATHS = ["/", "/style.css", "/js/main.js", "/i18n/en.js", "/i18n/zh.js", "/js/state.js",
                 "/openapi.json", "/docs", "/v1/rulesets/hkma"]


def brotli(binary, seconds=8):
    for clients in (64, 256):
        srv = Server(binary)
        try:
            probe = AdminProbe(srv, seconds + 1)
            stop = time.time() + seconds
            counts = {}
            coded = {}
            lock = threading.Lock()

            def client(k):
                c = None
                i = k
                while time.time() < stop:
                    path = BROWSER_PATHS[i % len(BROWSER_PATHS)]
                    i += 1
                    try:
                        if c is None:
                            c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
                        c.request("GET", path, headers={"Accept-Encoding": "gzip, deflate, br"})
                        r = c.getresponse()
                        r.read()
                        st, enc = r.status, r.getheader("content-encoding", "none")
                    except OSError:
                        if c is not None:
                            c.close()
                        c, st, enc = None, None, None
                    with lock:
                        counts[st] = counts.get(st, 0) + 1
                        if enc:
                            coded[enc] = coded.get(enc, 0) + 1
                if c is not None:
                    c.close()

            parallel(clients, client)
            probe.done(f"brotli {clients}")
            peak = srv.peak()
            log(f"brotli {clients}: {clients} clients for {seconds} s: statuses {counts}, codings {coded}; peak RSS {mib(peak)}")
            check(counts.get(200, 0) > 0, f"brotli {clients}: files answered")
            check(peak < POD_LIMIT, f"brotli {clients}: peak RSS {mib(peak)} < 192 MiB")
            check(srv.get("/healthz")[0] == 200, f"brotli {clients}: /healthz answers after")
        finally:
            srv.stop()


def pipelined(binary, seconds=6):
    srv = Server(binary)
    try:
        probe = AdminProbe(srv, seconds + 1)
        sizes = {}
        lock = threading.Lock()
        loads = [(8, b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n" * 100_000, "healthz"),
                 (16, b"GET /openapi.json HTTP/1.1\r\nHost: t\r\n\r\n" * 5_000, "openapi")]
        socks = []

        def one(load):
            s = narrow_socket(srv.port)
            n = send_for(s, load[1], seconds)
            with lock:
                sizes.setdefault(load[2], []).append(n)
                socks.append(s)

        jobs = [l for l in loads for _ in range(l[0])]
        parallel(len(jobs), lambda i: one(jobs[i]))
        mid = srv.status("VmRSS")
        probe.done("pipelined")
        for name, ns in sizes.items():
            log(f"pipelined {name}: {len(ns)} connections, each sent {min(ns):,} to {max(ns):,} bytes of requests before the server stopped reading")
        for s in socks:
            s.close()
        peak = srv.peak()
        log(f"pipelined: RSS while held {mib(mid)}, peak {mib(peak)}")
        check(peak < POD_LIMIT, f"pipelined: peak RSS {mib(peak)} < 192 MiB")
        check(srv.get("/healthz")[0] == 200, "pipelined: /healthz answers after")
    finally:
        srv.stop()


def blocked(binary, seconds=15):
    # 128 connections (the API's whole limit) that never read 12 answers each.
    srv = Server(binary)
    try:
        probe = AdminProbe(srv, seconds)
        t0 = time.time()
        socks = []
        for _ in range(128):
            try:
                s = narrow_socket(srv.port, timeout=2)
                s.sendall(b"GET /openapi.json HTTP/1.1\r\nHost: t\r\n\r\n" * 12)
                socks.append(s)
            except OSError:
                pass
        api = []  # (seconds since the start, /healthz on the API address)
        while time.time() - t0 < seconds - 1:
            api.append((time.time() - t0, srv.get("/healthz", timeout=1)[0]))
            time.sleep(0.25)
        probe.done("blocked openapi")
        late = 12.5  # the write timeout (10 s) after the last byte taken, with room
        first = next((t for t, st in api if st == 200), None)
        log(f"blocked openapi: {len(socks)} connections x 12 unread /openapi.json: API /healthz "
            f"{sum(st == 200 for _, st in api)} of {len(api)} answered, the first at "
            f"{'never' if first is None else f'{first:.1f} s'}")
        check(any(t > late for t, _ in api) and all(st == 200 for t, st in api if t > late),
              f"blocked openapi: the API answers /healthz after {late} s")
        for s in socks:
            s.close()
        peak = srv.peak()
        check(peak < POD_LIMIT, f"blocked openapi: peak RSS {mib(peak)} < 192 MiB")
    finally:
        srv.stop()
    # Four connections that never read a 4 MB ledger answer: 16 MB of the
    # 16 MiB budget, so another such ledger (1.2 MB in) does not fit.
    srv = Server(binary)
    try:
        probe = AdminProbe(srv, seconds)
        t0 = time.time()
        body = ledger(TRIPLE, 2000)
        head = (b"POST /v1/ledger HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                + f"Content-Length: {len(body)}\r\n\r\n".encode())
        stalled = []
        for _ in range(4):
            s = narrow_socket(srv.port, timeout=10)
            s.sendall(head + body)
            stalled.append(s)
        time.sleep(1)
        ledgers = []  # (seconds, status)
        while time.time() - t0 < seconds - 1:
            st, _n, _t = srv.post("/v1/ledger", body, timeout=10)
            ledgers.append((time.time() - t0, st))
            time.sleep(0.3)
        probe.done("blocked ledger")
        late = 12.5
        log("blocked ledger: 4 unread 4 MB answers; another ledger at " + ", ".join(f"{t:.1f}s:{st}" for t, st in ledgers))
        check(any(st == 503 for t, st in ledgers if t < 9), "blocked ledger: the unread answers hold the budget at first")
        check(any(t > late for t, _ in ledgers) and all(st == 200 for t, st in ledgers if t > late),
              f"blocked ledger: ledgers answer 200 after {late} s")
        for s in stalled:
            s.close()
        peak = srv.peak()
        check(peak < POD_LIMIT, f"blocked ledger: peak RSS {mib(peak)} < 192 MiB")
    finally:
        srv.stop()


def idle(binary, seconds=8):
    srv = Server(binary)
    try:
        probe = AdminProbe(srv, seconds)
        socks = []
        for _ in range(140):
            socks.append(socket.create_connection(("127.0.0.1", srv.port)))
        slow = []
        for _ in range(140):
            s = socket.socket()
            s.setblocking(False)
            try:
                s.connect(("127.0.0.1", srv.port))
            except BlockingIOError:
                pass
            slow.append(s)
        api = []
        stop = time.time() + seconds - 1
        header = b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow: " + b"a" * 100
        k = 0
        while time.time() < stop:
            for s in slow:
                try:
                    s.send(header[k % len(header):k % len(header) + 1])
                except OSError:
                    pass
            k += 1
            api.append(srv.get("/healthz", timeout=0.5)[0])
            time.sleep(0.5)
        probe.done("idle")
        log(f"idle: 140 idle and 140 slow-header connections: API /healthz answered {sum(st == 200 for st in api)} of {len(api)}")
        for s in socks + slow:
            s.close()
        peak = srv.peak()
        check(peak < POD_LIMIT, f"idle: peak RSS {mib(peak)} < 192 MiB")
        check(srv.get("/healthz")[0] == 200, "idle: /healthz answers after")
    finally:
        srv.stop()


# Chances for every discard of a hand three from ready (the model's bound),
# the longest look ahead, the others' discards counted.
ANALYZE = json.dumps({"ruleset": "mjtime",
    "hand": {"tiles": "123m458p367s12z39s5m"},
    "context": {"seat_wind": "south", "round_wind": "east"},
    "chances": {"draws": 30, "discards": True}}).encode()


def worst(binary):
    """Each endpoint's worst request alone on a fresh server: answer bytes,
    time of the first (a cache miss; loopback, client side), peak RSS."""
    settle3 = json.dumps({"ruleset": "hkma", "winners": [
        {"hand": w["hand"], "context": {"win_by": "discard", "seat_wind": s, "round_wind": "east", "discarder": "east"}}
        for w, s in zip(TRIPLE["winners"], ("south", "west", "north"))]}).encode()
    cases = [
        ("POST /v1/score", "/v1/score", json.dumps(score(0)).encode(), "a pure-suit hand of many readings"),
        ("POST /v1/score/batch", "/v1/score/batch", batch(0), "1,000 such hands, each distinct"),
        ("POST /v1/compare", "/v1/compare", compare(0), "32 distinct inline documents, that hand"),
        ("POST /v1/settle", "/v1/settle", settle3, "three winners on one discard"),
        ("POST /v1/ledger", "/v1/ledger", ledger(TRIPLE, 2000), "2,000 hands of three winners, four 32-character names"),
        ("POST /v1/waits", "/v1/waits", WAITS, "nine gates (nine waits)"),
        ("POST /v1/analyze", "/v1/analyze", ANALYZE, "14 tiles three from ready, 30 draws with discards, every discard"),
    ]
    rows = []
    for label, path, body, what in cases:
        srv = Server(binary)
        try:
            base = srv.peak()
            runs = [srv.post(path, body) for _ in range(3)]
            st = runs[0][0]
            n = runs[0][1]
            cold = runs[0][2]  # the first: a cache miss
            peak = srv.peak()
            rows.append(f"| `{label}` | {what} | {len(body):,} | {st} | {n:,} | {cold * 1000:.1f} | {mib(peak)} (start {mib(base)}) |")
        finally:
            srv.stop()
    print("| endpoint | worst request | body bytes | status | answer bytes | server time (ms) | peak RSS |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(r)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary", nargs="?")
    ap.add_argument("--worst", action="store_true")
    ap.add_argument("--only")
    ap.add_argument("--probe", nargs=2, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.probe:
        probe_main(int(a.probe[0]), float(a.probe[1]))
        return
    if a.worst:
        worst(a.binary)
        return
    attacks = {"amplification": amplification, "stalled": stalled, "inline": inline, "starvation": starvation,
               "brotli": brotli, "pipelined": pipelined, "blocked": blocked, "idle": idle,
               "slow_log": slow_log}
    for name, fn in attacks.items():
        if a.only and a.only != name:
            continue
        log(f"== {name}")
        fn(a.binary)
    if failures:
        log(f"{len(failures)} failed")
        sys.exit(1)
    log("all held")


if __name__ == "__main__":
    main()
