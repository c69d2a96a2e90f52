#!/usr/bin/env python3
"""Instructions per append on a shared table at 10, 100, 1,000 and 2,000
hands, counted by callgrind over the whole server process (every thread:
the HTTP worker, the blocking pool, the store's runtime and SQLite), and
the bytes of each append's answer (with `Prefer: return=minimal`, the
change: what every event carries).

    python3 bench/tables_append.py target/debug/faan            # this build
    python3 bench/tables_append.py /tmp/old/faan --no-minimal   # a build without return=minimal

The night: Ann deals and keeps the deal (her self-draws as dealer, with
Dan's false wins between), so it never ends. A table is made with N - K
hands at once, then K more are appended one by one, callgrind's counters
zeroed before and dumped after: instructions per append is the dump's
total over K. Loopback only; bounded (eight tables, K appends each).
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

K = 5
SIZES = [10, 100, 1000, 2000]

ANN_WINS = {"result": "win", "winners": [{"player": "Ann", "hand": {
    "tiles": "77755p", "melds": [{"kind": "pung", "tiles": "111m"},
                                 {"kind": "pung", "tiles": "999s"},
                                 {"kind": "pung", "tiles": "222p"}],
    "winning_tile": "5p"}, "context": {"win_by": "self_draw"}}]}
DAN_FALSE = {"result": "false_win", "offender": "Dan"}


def hands(n):
    return [ANN_WINS if i % 2 == 0 else DAN_FALSE for i in range(n)]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def call(method, url, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    if data is not None:
        req.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=600) as r:
            return r.status, r.read(), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read(), dict(e.headers)


def newest_dump(out_dir, before):
    files = [os.path.join(out_dir, f) for f in os.listdir(out_dir) if f.startswith("callgrind.out")]
    files = [f for f in files if f not in before]
    return max(files, key=os.path.getmtime) if files else None


def total(path):
    with open(path) as f:
        for line in f:
            if line.startswith("totals:"):
                return int(line.split()[1])
    return 0


def ctl(pid, *args):
    subprocess.run(["callgrind_control", *args, str(pid)], check=True, capture_output=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--no-minimal", action="store_true", help="the build has no Prefer: return=minimal")
    args = ap.parse_args()
    for tool in ("valgrind", "callgrind_control"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is missing (apt-get install valgrind)")
    work = tempfile.mkdtemp(prefix="faan-append-")
    port = free_port()
    out = os.path.join(work, "callgrind.out")
    env = dict(os.environ, FAAN_STORE=f"sqlite:{work}/tables.db", RUST_LOG="warn")
    server = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
         args.binary, "serve", "--addr", f"127.0.0.1:{port}", "--admin-addr", "none",
         "--ledger-hands", "2100",
         "--tables-per-hour", "1000"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if call("GET", base + "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.5)
        # Instrumented from here on; the first costs after it are the
        # translation's, so one table is made and changed before counting.
        ctl(server.pid, "-i", "on")
        warm = {"ruleset": "hkma", "players": ["Ann", "Ben", "Cat", "Dan"], "hands": hands(3)}
        status, raw, _ = call("POST", base + "/v1/tables", warm)
        assert status == 201, (status, raw[:300])
        w = json.loads(raw)
        call("POST", f"{base}/v1/tables/{w['id']}/hands", DAN_FALSE,
             {"authorization": f"Bearer {w['key']}", "if-match": '"v1"'})
        modes = [("table", {})] + ([] if args.no_minimal else [("minimal", {"prefer": "return=minimal"})])
        print(f"{'hands':>6} {'answer':>8} {'instructions/append':>20} {'answer bytes':>13}")
        for n in SIZES:
            for mode, extra in modes:
                body = {"ruleset": "hkma", "players": ["Ann", "Ben", "Cat", "Dan"], "hands": hands(n - K)}
                status, raw, _ = call("POST", base + "/v1/tables", body)
                assert status == 201, (status, raw[:300])
                created = json.loads(raw)
                tid, key, version = created["id"], created["key"], 1
                dumps = set(os.listdir(work))
                ctl(server.pid, "-z")
                size = 0
                for i in range(K):
                    hand = ANN_WINS if (n - K + i) % 2 == 0 else DAN_FALSE
                    h = {"authorization": f"Bearer {key}", "if-match": f'"v{version}"', **extra}
                    status, raw, _ = call("POST", f"{base}/v1/tables/{tid}/hands", hand, h)
                    assert status == 200, (status, raw[:300])
                    version += 1
                    size = len(raw)
                ctl(server.pid, "-d")
                time.sleep(1)
                dump = newest_dump(work, {os.path.join(work, f) for f in dumps})
                per = total(dump) // K if dump else 0
                print(f"{n:>6} {mode:>8} {per:>20,} {size:>13,}", flush=True)
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
