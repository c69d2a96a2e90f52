#!/usr/bin/env python3
"""Shared tables on several faan instances that share one PostgreSQL.

Started by deploy/loopback/tables.sh, which starts PostgreSQL, the
instances and nginx. Standard library only (asyncio, plain HTTP/1.1).

Each table gets one scorer, who appends a hand through nginx every
INTERVAL ms (waiting for each answer, with If-Match on the version it
last saw), and STREAMS event streams opened straight at the instances in
turn, so that most of them sit on an instance other than the one that
stored the change. Measured: an append's time (sent to 200), and each
change's delivery (the append sent to the event read on a stream).

--check (the loopback test) asserts that every stream's versions rise to
the last one, that every change reached every stream within a second (a
later version counts: changes closer together than an instance's read of
the table reach it as one), and that nothing failed. Without it the
figures are printed as JSON (bench/tables.md).
"""

import argparse
import asyncio
import json
import sys
import time

HANDS = [
    {"result": "draw"},
    {"result": "win", "winners": [{"player": "Ben", "hand": {
        "tiles": "77755p", "winning_tile": "5p", "melds": [
            {"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999s"},
            {"kind": "pung", "tiles": "222p"}]},
        "context": {"win_by": "self_draw"}}]},
]


def night(i):
    return {"ruleset": "hkma", "title": f"night {i}", "players": ["Ann", "Ben", "Cat", "Dan"],
            "start": {"round_wind": "east", "dealer": "Ann"}, "hands": []}


async def request(port, method, path, body=None, headers=None, timeout=10):
    """One request on its own connection: (status, headers, body bytes)."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    try:
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: loopback\r\nConnection: close\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        for k, v in (headers or {}).items():
            head += f"{k}: {v}\r\n"
        writer.write(head.encode() + b"\r\n" + data)
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()
    head, _, rest = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    hdrs = {k.lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
    if hdrs.get("transfer-encoding") == "chunked":
        out, buf = b"", rest
        while buf:
            size, _, buf = buf.partition(b"\r\n")
            n = int(size, 16)
            if n == 0:
                break
            out, buf = out + buf[:n], buf[n + 2:]
        rest = out
    return status, hdrs, rest


class Stream:
    """One event stream: the versions it saw, and when."""

    def __init__(self, port, table_id):
        self.port, self.id = port, table_id
        self.seen = []  # (version, monotonic time)
        self.error = None

    async def run(self, stop):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 24)
            writer.write(f"GET /v1/tables/{self.id}/events HTTP/1.1\r\nHost: loopback\r\n"
                         "Accept: text/event-stream\r\n\r\n".encode())
            await writer.drain()
            status = (await reader.readline()).split()[1]
            if status != b"200":
                self.error = f"events answered {status.decode()}"
                return
            while await reader.readline() not in (b"\r\n", b""):
                pass
            # Chunked framing, undone: an event may span chunks (the server
            # writes a long one in pieces) and a chunk may hold several.
            buf = b""
            while not stop.is_set():
                size = int((await asyncio.wait_for(reader.readline(), 30)).strip() or b"0", 16)
                if size == 0:
                    self.error = self.error or "the stream closed"
                    return
                buf += await asyncio.wait_for(reader.readexactly(size + 2), 30)
                buf = buf[:-2]
                while b"\n\n" in buf:
                    event, buf = buf.split(b"\n\n", 1)
                    version, kind = None, None
                    for line in event.split(b"\n"):
                        if line.startswith(b"id: "):
                            version = int(line[4:])
                        elif line.startswith(b"event: "):
                            kind = line[7:].strip()
                    if kind in (b"table", b"hand", b"undo") and version is not None:
                        self.seen.append((version, time.monotonic()))
        except asyncio.TimeoutError:
            self.error = "no frame for 30 s"
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError) as e:
            self.error = f"stream: {e!r}"


async def scorer(nginx, table_id, key, interval, deadline, sent, appends, failures, retries):
    version = 1
    i = 0
    while time.monotonic() < deadline:
        t0 = time.monotonic()
        sent[version + 1] = t0
        status, hdrs, body = await request(nginx, "POST", f"/v1/tables/{table_id}/hands",
                                           HANDS[i % len(HANDS)],
                                           {"Authorization": f"Bearer {key}",
                                            "If-Match": f'"v{version}"',
                                            # The change, not the whole table.
                                            "Prefer": "return=minimal"})
        t1 = time.monotonic()
        if status == 503 and "retry-after" in hdrs:
            # Overloaded: wait as told and send the same hand again.
            retries.append(1)
            await asyncio.sleep(float(hdrs["retry-after"]))
            continue
        if status != 200:
            failures.append(f"append to {table_id} at v{version}: {status} {body[:200]!r}")
            return
        appends.append(t1 - t0)
        version = int(hdrs["etag"].strip('"v'))
        sent["last"] = version
        i += 1
        await asyncio.sleep(max(0.0, interval - (time.monotonic() - t0)))


def pct(xs, p):
    xs = sorted(xs)
    return round(1000 * xs[min(len(xs) - 1, int(p / 100 * len(xs)))], 1) if xs else None


def rss_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return None


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nginx-port", type=int, required=True)
    ap.add_argument("--ports", required=True, help="the instances' own ports, comma-separated")
    ap.add_argument("--pids", default="", help="the instances' pids, for their peak RSS")
    ap.add_argument("--tables", type=int, default=3)
    ap.add_argument("--streams", type=int, default=3)
    ap.add_argument("--interval-ms", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    ports = [int(p) for p in a.ports.split(",")]

    tables = []
    for i in range(a.tables):
        status, _, body = await request(a.nginx_port, "POST", "/v1/tables", night(i))
        if status != 201:
            sys.exit(f"tables.py: creating table {i}: {status} {body[:300]!r}")
        made = json.loads(body)
        tables.append((made["id"], made["key"]))

    stop = asyncio.Event()
    streams = {tid: [Stream(ports[(t + s) % len(ports)], tid) for s in range(a.streams)]
               for t, (tid, _) in enumerate(tables)}
    tasks = [asyncio.create_task(s.run(stop)) for ss in streams.values() for s in ss]
    # Every stream has its first event (version 1) before the load starts.
    t_wait = time.monotonic() + 10
    while time.monotonic() < t_wait and not all(s.seen or s.error for ss in streams.values() for s in ss):
        await asyncio.sleep(0.05)

    deadline = time.monotonic() + a.seconds
    sent = {tid: {} for tid, _ in tables}
    appends, failures, retries = [], [], []
    await asyncio.gather(*(scorer(a.nginx_port, tid, key, a.interval_ms / 1000, deadline,
                                  sent[tid], appends, failures, retries)
                           for tid, key in tables))
    # The last changes' events have a second to arrive.
    await asyncio.sleep(1.0)
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    # A change is delivered when the stream shows it or a later version: an
    # instance that reads a table on a notification after a second change
    # was committed sends the latest (a stream only ever needs it), so
    # changes that land closer together than that read are coalesced.
    deliveries, problems, coalesced = [], list(failures), 0
    for tid, ss in streams.items():
        last = sent[tid].pop("last", 1)
        for s in ss:
            if s.error:
                problems.append(f"{tid} on :{s.port}: {s.error}")
            versions = [v for v, _ in s.seen]
            if not versions or versions[-1] != last or versions != sorted(set(versions)):
                problems.append(f"{tid} on :{s.port}: saw versions {versions[:3]}..{versions[-3:]}, "
                                f"not increasing to {last}")
                continue
            coalesced += last - len(versions)
            k = 0
            for v in range(2, last + 1):
                while s.seen[k][0] < v:
                    k += 1
                deliveries.append(s.seen[k][1] - sent[tid][v])
    out = {
        "instances": len(ports), "tables": a.tables, "streams_per_table": a.streams,
        "interval_ms": a.interval_ms, "seconds": a.seconds,
        "appends": len(appends), "overloaded_retries": len(retries), "append_ms": {"p50": pct(appends, 50), "p99": pct(appends, 99)},
        "deliveries": len(deliveries), "coalesced": coalesced,
        "delivery_ms": {"p50": pct(deliveries, 50), "p99": pct(deliveries, 99),
                        "max": pct(deliveries, 100)},
        "peak_rss_kib": [rss_kib(p, "VmHWM") for p in a.pids.split(",") if p],
        "problems": problems[:20], "problem_count": len(problems),
    }
    print(json.dumps(out, indent=1))
    if a.check:
        if problems:
            sys.exit("tables.py: FAIL: " + "; ".join(problems[:5]))
        if not deliveries or max(deliveries) >= 1.0:
            sys.exit(f"tables.py: FAIL: a change took {max(deliveries or [0]):.3f} s to reach a stream")
        print(f"tables.py: PASS: {len(deliveries)} deliveries across {len(ports)} instances, "
              f"every one under a second (max {max(deliveries) * 1000:.0f} ms)")


if __name__ == "__main__":
    asyncio.run(main())
