#!/usr/bin/env python3
"""Event streams held by one instance, and what they cost the API.

Starts the given faan binary on 127.0.0.1 at its defaults (two workers,
--events-max 10,000, --events-per-table 16, --max-connections 64) on a
throwaway SQLite file, with --tables-per-hour raised so that the script
may make its 625 tables. Then, in one run side by side:

  0 streams     the server's CPU over 3 s with nothing asked, then
                POST /v1/score timed (4 clients, keep-alive, SECONDS s),
                then 100 appends to a fresh table
  1,000         streams opened (16 a table), each read by the script; the
                same timings; VmRSS and VmHWM of the server
  10,000        the same
  one more      GET .../events past --events-max: 503 streams-full, timed

The admin /healthz is asked every 100 ms throughout and must answer 200.
Standard library only; loopback only; bounded in count and time.

Usage: bench/streams.py target/release/faan [--seconds 5]
"""

import argparse
import asyncio
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time

PER_TABLE = 16
STEPS = [0, 1000, 10000]
SCORE = json.dumps({
    "ruleset": "hkma",
    "hand": {"tiles": "77755p", "winning_tile": "5p", "melds": [
        {"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999s"},
        {"kind": "pung", "tiles": "222p"}]},
    "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"},
}).encode()
NIGHT = json.dumps({"ruleset": "hkma", "title": "Bench", "players": ["Ann", "Ben", "Cat", "Dan"],
                    "start": {"round_wind": "east", "dealer": "Ann"}, "hands": []}).encode()
DRAW = json.dumps({"result": "draw"}).encode()


def free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def status_kib(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


class Conn:
    """One keep-alive HTTP/1.1 client connection."""

    def __init__(self, port):
        self.port = port
        self.r = self.w = None

    async def request(self, method, path, body=b"", headers=()):
        if self.w is None:
            self.r, self.w = await asyncio.open_connection("127.0.0.1", self.port)
        head = f"{method} {path} HTTP/1.1\r\nHost: bench\r\nContent-Length: {len(body)}\r\n"
        if body:
            head += "Content-Type: application/json\r\n"
        for k, v in headers:
            head += f"{k}: {v}\r\n"
        self.w.write(head.encode() + b"\r\n" + body)
        status_line = await self.r.readline()
        status = int(status_line.split()[1])
        length = 0
        hdrs = {}
        while True:
            line = await self.r.readline()
            if line in (b"\r\n", b""):
                break
            k, _, v = line.decode().partition(":")
            hdrs[k.strip().lower()] = v.strip()
        length = int(hdrs.get("content-length", "0"))
        data = await self.r.readexactly(length) if length else b""
        if hdrs.get("connection", "").lower() == "close":
            self.close()
        return status, hdrs, data

    def close(self):
        if self.w is not None:
            self.w.close()
            self.w = None


async def open_stream(port, table, readers):
    """An event stream read (and discarded) until cancelled."""
    r, w = await asyncio.open_connection("127.0.0.1", port)
    w.write(f"GET /v1/tables/{table}/events HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
    head = await r.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200") or b"text/event-stream" not in head:
        raise RuntimeError(f"stream refused: {head[:200]!r}")

    async def read():
        try:
            while await r.read(65536):
                pass
        except (ConnectionError, asyncio.CancelledError):
            pass
    readers.append((asyncio.ensure_future(read()), w))


def cpu_s(pid):
    """User and system CPU seconds the process has used."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p / 100))]


async def time_scores(port, seconds, clients=4):
    times = []
    stop = time.monotonic() + seconds

    async def client():
        c = Conn(port)
        while time.monotonic() < stop:
            t = time.perf_counter()
            st, _, _ = await c.request("POST", "/v1/score", SCORE)
            times.append((time.perf_counter() - t) * 1000)
            assert st == 200, st
        c.close()
    await asyncio.gather(*[client() for _ in range(clients)])
    return times


async def time_appends(port, n=100):
    c = Conn(port)
    st, _, body = await c.request("POST", "/v1/tables", NIGHT)
    assert st == 201, (st, body[:200])
    t = json.loads(body)
    tid, key, version = t["id"], t["key"], t["version"]
    times = []
    for _ in range(n):
        s = time.perf_counter()
        st, _, body = await c.request("POST", f"/v1/tables/{tid}/hands", DRAW,
                                      [("Authorization", f"Bearer {key}"), ("If-Match", f'"v{version}"')])
        times.append((time.perf_counter() - s) * 1000)
        assert st == 200, (st, body[:200])
        version = json.loads(body)["version"]
    c.close()
    return times


async def probe_admin(port, stop, bad):
    c = Conn(port)
    while not stop.is_set():
        try:
            st, _, _ = await asyncio.wait_for(c.request("GET", "/healthz"), 1)
            if st != 200:
                bad.append(st)
        except Exception as e:  # noqa: BLE001 - any failure is a failed probe
            bad.append(repr(e))
            c.close()
        await asyncio.sleep(0.1)


async def main(args):
    global STEPS
    STEPS = [int(x) for x in args.steps.split(",")]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < max(STEPS) + 1000:
        sys.exit(f"streams.py: the open files limit ({hard}) is below {max(STEPS) + 1000}")
    port, admin = free_ports(2)
    tmp = tempfile.mkdtemp(prefix="faan-streams-")
    proc = subprocess.Popen([args.binary, "serve", "--addr", f"127.0.0.1:{port}",
                             "--admin-addr", f"127.0.0.1:{admin}", "--workers", "2",
                             "--store", f"sqlite:{tmp}/tables.db", "--tables-per-hour", "100000",
                             "--log-level", "warn"])
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.1)
        stop = asyncio.Event()
        bad = []
        prober = asyncio.ensure_future(probe_admin(admin, stop, bad))
        c = Conn(port)
        tables = []
        # One more, with no stream, for the stream past --events-max.
        for _ in range(max(STEPS) // PER_TABLE + 1):
            st, _, body = await c.request("POST", "/v1/tables", NIGHT)
            assert st == 201, (st, body[:200])
            tables.append(json.loads(body)["id"])
        c.close()
        readers = []
        rows = []
        for step in STEPS:
            t0 = time.monotonic()
            sem = asyncio.Semaphore(200)

            async def one(i):
                async with sem:
                    await open_stream(port, tables[i // PER_TABLE], readers)
            await asyncio.gather(*[one(i) for i in range(len(readers), step)])
            opened_s = time.monotonic() - t0
            await asyncio.sleep(1)
            # The streams' own cost while nothing else runs: their checks
            # of the socket (two a second each) and keep-alive comments.
            c0 = cpu_s(proc.pid)
            await asyncio.sleep(3)
            idle_cpu = (cpu_s(proc.pid) - c0) / 3 * 100
            rss = status_kib(proc.pid, "VmRSS")
            scores = await time_scores(port, args.seconds)
            appends = await time_appends(port)
            hwm = status_kib(proc.pid, "VmHWM")
            rows.append((step, opened_s, rss, hwm, scores, appends, idle_cpu))
            print(f"{step} streams (opened in {opened_s:.1f} s, idle CPU {idle_cpu:.1f} %): VmRSS {rss / 1024:.1f} MiB, "
                  f"VmHWM {hwm / 1024:.1f} MiB; score n={len(scores)} p50 {pct(scores, 50):.2f} "
                  f"p99 {pct(scores, 99):.2f} ms; append p50 {pct(appends, 50):.1f} "
                  f"p99 {pct(appends, 99):.1f} ms", flush=True)
        c = Conn(port)
        t = time.perf_counter()
        st, hdrs, body = await c.request("GET", f"/v1/tables/{tables[-1]}/events")
        refused_ms = (time.perf_counter() - t) * 1000
        c.close()
        kind = json.loads(body).get("type") if body else None
        print(f"stream {max(STEPS) + 1}: {st} {kind} Retry-After {hdrs.get('retry-after')} "
              f"in {refused_ms:.1f} ms", flush=True)
        stop.set()
        await prober
        base = rows[0][2]
        print("\n| streams | opened in | server CPU, idle | VmRSS | over idle, per stream | VmHWM "
              "| /v1/score p50 / p99 | append p50 / p99 |")
        print("|---|---|---|---|---|---|---|---|")
        for step, opened_s, rss, hwm, scores, appends, idle_cpu in rows:
            per = f"{(rss - base) * 1024 / step / 1024:.1f} KiB" if step else "-"
            print(f"| {step:,} | {opened_s:.1f} s | {idle_cpu:.1f} % | {rss / 1024:.1f} MiB | {per} | "
                  f"{hwm / 1024:.1f} MiB | "
                  f"{pct(scores, 50):.2f} / {pct(scores, 99):.2f} ms | "
                  f"{pct(appends, 50):.1f} / {pct(appends, 99):.1f} ms |")
        print(f"\nadmin /healthz failures: {len(bad)} {bad[:5]}")
        ok = st == 503 and kind == "/problems/streams-full" and not bad
        for task, w in readers:
            task.cancel()
            w.close()
        return 0 if ok else 1
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--steps", default=",".join(map(str, STEPS)),
                    help="streams at each step (a quick check: 0,100,200)")
    sys.exit(asyncio.run(main(ap.parse_args())))
