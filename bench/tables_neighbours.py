#!/usr/bin/env python3
"""A small table's append beside heavy neighbours: its time alone, then
while eight clients each append as fast as they can to a table of their
own, at hand 10 (light neighbours) and at hand 2,000 (heavy ones; their
answers as the whole `TABLE`, and with `Prefer: return=minimal`). Eight
clients that never wait queue on the store's one writer whatever their
tables, so the heavy rows are to be read against the light row. Wall
clock on loopback: compare the rows of one run, not runs of different
days.

    python3 bench/tables_neighbours.py target/release/faan
"""
import argparse
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time

ANN_WINS = {"result": "win", "winners": [{"player": "Ann", "hand": {
    "tiles": "77755p", "melds": [{"kind": "pung", "tiles": "111m"},
                                 {"kind": "pung", "tiles": "999s"},
                                 {"kind": "pung", "tiles": "222p"}],
    "winning_tile": "5p"}, "context": {"win_by": "self_draw"}}]}
DAN_FALSE = {"result": "false_win", "offender": "Dan"}
SMALL_APPENDS = int(os.environ.get("SMALL_APPENDS", "300"))
HEAVY = 8


def hands(n):
    return [ANN_WINS if i % 2 == 0 else DAN_FALSE for i in range(n)]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Client:
    def __init__(self, port):
        self.c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method, path, body=None, headers=None):
        h = {"content-type": "application/json", **(headers or {})}
        self.c.request(method, path, None if body is None else json.dumps(body), h)
        r = self.c.getresponse()
        return r.status, r.read(), {k.lower(): v for k, v in r.getheaders()}


def make(client, n):
    body = {"ruleset": "hkma", "players": ["Ann", "Ben", "Cat", "Dan"], "hands": hands(n)}
    status, raw, _ = client.call("POST", "/v1/tables", body)
    assert status == 201, (status, raw[:300])
    t = json.loads(raw)
    return t["id"], t["key"]


def appender(port, tid, key, at, stop, extra, times):
    """Appends until `stop`; `at` is [version, hands], kept across runs."""
    c = Client(port)
    version, n = at
    while not stop.is_set():
        hand = ANN_WINS if n % 2 == 0 else DAN_FALSE
        t0 = time.perf_counter()
        status, raw, hdrs = c.call("POST", f"/v1/tables/{tid}/hands", hand,
                                   {"authorization": f"Bearer {key}", "if-match": f'"v{version}"', **extra})
        if status == 503:
            time.sleep(float(hdrs.get("retry-after", "1")))
            continue
        assert status == 200, (status, raw[:300])
        times.append(time.perf_counter() - t0)
        version, n = version + 1, n + 1
        at[:] = [version, n]


def small(port, extra):
    c = Client(port)
    tid, key = make(c, 10)
    times = []
    stop = threading.Event()
    t = threading.Thread(target=appender, args=(port, tid, key, [1, 10], stop, extra, times))
    t.start()
    while len(times) < SMALL_APPENDS:
        time.sleep(0.05)
    stop.set()
    t.join()
    return times


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="faan-neighbours-")
    port = free_port()
    env = dict(os.environ, FAAN_STORE=f"sqlite:{work}/tables.db", RUST_LOG="warn")
    server = subprocess.Popen([args.binary, "serve", "--addr", f"127.0.0.1:{port}", "--admin-addr", "none",
                               "--ledger-hands", "100000", "--tables-per-hour", "1000"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                if Client(port).call("GET", "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        minimal = {"prefer": "return=minimal"}
        rows = [("alone", small(port, minimal), 0)]
        light = [(*make(Client(port), 10), [1, 10]) for _ in range(HEAVY)]
        heavy = [(*make(Client(port), 1990), [1, 1990]) for _ in range(HEAVY)]
        for label, extra, neighbours in (("8 light, minimal", minimal, light),
                                         ("8 heavy, minimal", minimal, heavy),
                                         ("8 heavy, TABLE answers", {}, heavy)):
            stop = threading.Event()
            heavy_times = []
            ts = [threading.Thread(target=appender, args=(port, tid, key, at, stop, extra, heavy_times))
                  for tid, key, at in neighbours]
            for t in ts:
                t.start()
            time.sleep(1)
            got = small(port, minimal)
            stop.set()
            for t in ts:
                t.join()
            rows.append((label, got, len(heavy_times)))
        print(f"{'small table beside':<26} {'p50 ms':>8} {'p99 ms':>8} {'their appends':>14}")
        for label, times, n in rows:
            print(f"{label:<26} {pct(times, 0.5):>8.2f} {pct(times, 0.99):>8.2f} {n:>14,}")
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
