#!/usr/bin/env python3
"""Three faan instances behind nginx on 127.0.0.1, under a bounded load.

Started by deploy/loopback/cluster.sh, which checks the tools, writes the
nginx configuration (deploy/nginx/faan.conf with local ports) and starts
nginx; this script owns the faan instances and the load. Standard library
only.

Phases, all under load from CLIENTS threads through nginx:

1. warm-up: every request of the keyed set (with X-Faan-Key, a table id)
   and of the unkeyed set once;
2. hit rates: both sets again, in a new order: the keyed share of
   `X-Cache: hit` (>= 90 %), the unkeyed share (about a third);
3. rolling restart under continuous load: each instance in turn gets
   SIGTERM, answers 503 on /readyz during its shutdown delay, exits 0, is
   started again on its port and serves requests before the next one goes;
4. SIGKILL of one instance under load; the failures after it are counted.

Every response must be a 200 whose JSON equals the answer `faan score
--json` (the CLI, another code path) gave for that request; a failure in
phases 1 to 3 fails the run. The load is bounded: at most LOAD_LIMIT_S
seconds in all, and each phase has its own deadline.
"""

import argparse
import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time

LOAD_LIMIT_S = 60
CLIENTS = 8
SET_SIZE = 300
TABLES = 50
SHUTDOWN_DELAY_S = 1
SHUTDOWN_TIMEOUT_S = 10
SEED = 20261130


def log(msg):
    print(f"[cluster {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def fail(msg):
    log(f"FAIL: {msg}")
    sys.exit(1)


def http_get(port, path, timeout=2.0):
    """A GET on a new connection: (status, body), or (None, error text)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Connection": "close"})
        r = conn.getresponse()
        return r.status, r.read()
    except OSError as e:
        return None, str(e)
    finally:
        conn.close()


class Instance:
    def __init__(self, binary, port, logdir, n):
        self.binary, self.port, self.n = binary, port, n
        self.logpath = os.path.join(logdir, f"faan-{n}.log")
        self.proc = None

    def start(self):
        log_file = open(self.logpath, "ab")
        self.proc = subprocess.Popen(
            [
                self.binary, "serve",
                "--addr", f"127.0.0.1:{self.port}",
                "--admin-addr", "none",
                "--workers", "1",
                "--shutdown-delay", str(SHUTDOWN_DELAY_S),
                "--shutdown-timeout", str(SHUTDOWN_TIMEOUT_S),
                "--log-format", "json",
                "--log-level", "warn",
            ],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log_file,
        )
        log_file.close()

    def wait_ready(self, limit_s=10.0):
        deadline = time.monotonic() + limit_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                fail(f"instance {self.n} exited with {self.proc.returncode} (see {self.logpath})")
            if http_get(self.port, "/readyz")[0] == 200:
                return
            time.sleep(0.05)
        fail(f"instance {self.n} not ready after {limit_s} s")

    def score_requests(self):
        """POST /v1/score requests this process has answered (its /metrics)."""
        status, body = http_get(self.port, "/metrics")
        if status != 200:
            return 0
        total = 0
        for line in body.decode().splitlines():
            if line.startswith("faan_http_requests_total{") and 'route="/v1/score"' in line:
                total += int(float(line.rsplit(" ", 1)[1]))
        return total

    def stop(self, sig=signal.SIGTERM):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)


class Tally:
    """Counts shared by the client threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with self.lock:
            self.ok = 0
            self.failed = 0
            self.hits = {True: 0, False: 0}
            self.sent = {True: 0, False: 0}
            self.failures = []  # (time, text), the first few

    def add(self, keyed, hit, error, at):
        with self.lock:
            self.sent[keyed] += 1
            if error is None:
                self.ok += 1
                self.hits[keyed] += hit
            else:
                self.failed += 1
                if len(self.failures) < 10:
                    self.failures.append((at, error))

    def snapshot(self):
        with self.lock:
            return dict(ok=self.ok, failed=self.failed, hits=dict(self.hits),
                        sent=dict(self.sent), failures=list(self.failures))


class Client(threading.Thread):
    """Sends requests through nginx on one keep-alive connection.

    Takes items from `work` (a shared list consumed once) when given, else
    random items from `pool` until `stop` is set.
    """

    def __init__(self, port, tally, stop, pool=None, work=None, seed=0):
        super().__init__(daemon=True)
        self.port, self.tally, self.stop = port, tally, stop
        self.pool, self.work = pool, work
        self.rng = random.Random(seed)
        self.conn = None

    def next_item(self):
        if self.work is not None:
            try:
                return self.work.pop()
            except IndexError:
                return None
        return None if self.stop.is_set() else self.rng.choice(self.pool)

    def run(self):
        while (item := self.next_item()) is not None:
            self.tally.add(item["key"] is not None, *self.send(item), time.monotonic())
        if self.conn:
            self.conn.close()

    def send(self, item):
        """(hit, error or None) for one request."""
        headers = {"Content-Type": "application/json"}
        if item["key"] is not None:
            headers["X-Faan-Key"] = item["key"]
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
            self.conn.request("POST", "/v1/score", item["body"], headers)
            r = self.conn.getresponse()
            data = r.read()
            cache = r.getheader("X-Cache")
        except (OSError, http.client.HTTPException) as e:
            self.conn.close()
            self.conn = None
            return False, f"{type(e).__name__}: {e}"
        if r.status != 200:
            return False, f"status {r.status}: {data[:200]!r}"
        try:
            got = json.loads(data)
        except ValueError as e:
            return False, f"invalid JSON ({e}): {data[:200]!r}"
        if got != item["expected"]:
            return False, (f"wrong answer for request {item['id']}: total_faan "
                           f"{got.get('total_faan')} hand_hash {got.get('hand_hash')}, expected "
                           f"{item['expected']['total_faan']} {item['expected']['hand_hash']}")
        if cache not in ("hit", "miss"):
            return False, f"X-Cache {cache!r}"
        return cache == "hit", None


def one_pass(port, tally, items, seed, limit_s):
    """Every item once, CLIENTS at a time; returns the tally's snapshot."""
    work = list(items)
    random.Random(seed).shuffle(work)
    stop = threading.Event()
    clients = [Client(port, tally, stop, work=work) for _ in range(CLIENTS)]
    for c in clients:
        c.start()
    for c in clients:
        c.join(limit_s)
        if c.is_alive():
            fail(f"a pass of {len(items)} requests took over {limit_s} s")
    return tally.snapshot()


def load_requests(binary, corpus):
    """Distinct corpus requests with the CLI's answer to each."""
    lines = [l for l in open(corpus, encoding="utf-8").read().splitlines() if l.strip()]
    out = subprocess.run([binary, "score", "--json", "--input", corpus],
                         capture_output=True, check=False)
    answers = out.stdout.decode().splitlines()
    if len(answers) != len(lines):
        fail(f"faan score --json gave {len(answers)} answers for {len(lines)} requests "
             f"(exit {out.returncode}): {out.stderr.decode()[:300]}")
    seen, items = set(), []
    for i, (body, answer) in enumerate(zip(lines, answers)):
        expected = json.loads(answer)
        h = expected.get("hand_hash")
        # Distinct hands only, so that a hit comes from this run's own repeat.
        if h and h not in seen:
            seen.add(h)
            items.append({"id": i, "body": body.encode(), "expected": expected, "key": None})
    random.Random(SEED).shuffle(items)
    if len(items) < 2 * SET_SIZE:
        fail(f"only {len(items)} distinct scorable requests in {corpus}")
    keyed, unkeyed = items[:SET_SIZE], items[SET_SIZE:2 * SET_SIZE]
    for n, item in enumerate(keyed):
        # A table id: every hand of a table goes to the instance that has
        # the table's earlier answers.
        item["key"] = f"table-{n % TABLES}"
    return keyed, unkeyed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--nginx-port", type=int, required=True)
    ap.add_argument("--ports", required=True, help="instance ports, comma-separated")
    ap.add_argument("--logdir", required=True)
    ap.add_argument("--access-log", required=True)
    ap.add_argument("--summary", required=True, help="write the figures here as JSON")
    ap.add_argument("--leave-running", action="store_true",
                    help="after the checks, start the killed instance again and leave all three "
                         "running (for a throughput run); their pids go to LOGDIR/pids")
    args = ap.parse_args()
    t_start = time.monotonic()

    keyed, unkeyed = load_requests(args.bin, args.corpus)
    log(f"{len(keyed)} keyed requests ({TABLES} tables) and {len(unkeyed)} unkeyed, "
        f"each with the CLI's answer")

    ports = [int(p) for p in args.ports.split(",")]
    instances = [Instance(args.bin, p, args.logdir, n) for n, p in enumerate(ports)]
    for inst in instances:
        inst.start()
    try:
        return run(args, instances, keyed, unkeyed, t_start)
    finally:
        if not args.leave_running:
            for inst in instances:
                inst.stop(signal.SIGKILL)


def run(args, instances, keyed, unkeyed, t_start):
    for inst in instances:
        inst.wait_ready()
    log(f"instances ready on ports {', '.join(str(i.port) for i in instances)}; "
        f"nginx on {args.nginx_port}")
    port = args.nginx_port
    tally = Tally()
    load_started = time.monotonic()

    def budget():
        left = LOAD_LIMIT_S - (time.monotonic() - load_started)
        if left <= 0:
            fail(f"the load ran over its {LOAD_LIMIT_S} s bound")
        return left

    # 1. Warm-up.
    s = one_pass(port, tally, keyed + unkeyed, SEED + 1, budget())
    if s["failed"]:
        fail(f"warm-up: {s['failed']} failed: {s['failures']}")
    warm_total = s["ok"]
    log(f"warm-up: {warm_total} requests, all 200 with the expected body")

    # 2. Hit rates after warm-up.
    tally.reset()
    s = one_pass(port, tally, keyed + unkeyed, SEED + 2, budget())
    if s["failed"]:
        fail(f"hit-rate pass: {s['failed']} failed: {s['failures']}")
    keyed_rate = s["hits"][True] / s["sent"][True]
    unkeyed_rate = s["hits"][False] / s["sent"][False]
    log(f"hit rate after warm-up: keyed {keyed_rate:.1%} ({s['hits'][True]}/{s['sent'][True]}), "
        f"unkeyed {unkeyed_rate:.1%} ({s['hits'][False]}/{s['sent'][False]})")
    if keyed_rate < 0.90:
        fail(f"keyed hit rate {keyed_rate:.1%} < 90%")
    # Round-robin over three instances: a repeat finds its answer on the
    # instance it lands on about one time in three.
    if not 0.20 <= unkeyed_rate <= 0.50:
        fail(f"unkeyed hit rate {unkeyed_rate:.1%}, expected about a third")
    measured = s["ok"]

    # 3. Rolling restart under continuous load.
    retried_before = retries_in(args.access_log)
    tally.reset()
    stop = threading.Event()
    pool = keyed + unkeyed
    clients = [Client(port, tally, stop, pool=pool, seed=SEED + 10 + n) for n in range(CLIENTS)]
    for c in clients:
        c.start()
    restart_log = []
    try:
        time.sleep(0.5)
        for inst in instances:
            restart_log.append(rolling_restart_one(inst, budget))
    finally:
        stop.set()
        for c in clients:
            c.join(15)
    s = tally.snapshot()
    retried_rolling = retries_in(args.access_log) - retried_before
    rolling = {"requests": s["ok"] + s["failed"], "failed": s["failed"],
               "nginx_retried": retried_rolling}
    log(f"rolling restart: {s['failed']} failed of {rolling['requests']} requests "
        f"({retried_rolling} retried by nginx on another instance)")
    if s["failed"]:
        fail(f"rolling restart: {s['failed']} failed: {s['failures']}")

    # 4. SIGKILL one instance under load.
    retried_before = retries_in(args.access_log)
    tally.reset()
    stop = threading.Event()
    clients = [Client(port, tally, stop, pool=pool, seed=SEED + 20 + n) for n in range(CLIENTS)]
    for c in clients:
        c.start()
    victim = instances[1]
    try:
        time.sleep(min(1.0, budget()))
        before = tally.snapshot()
        victim.stop(signal.SIGKILL)
        killed_at = time.monotonic()
        victim.proc.wait(5)
        time.sleep(min(3.0, budget()))
    finally:
        stop.set()
        for c in clients:
            c.join(15)
    s = tally.snapshot()
    after_requests = (s["ok"] + s["failed"]) - (before["ok"] + before["failed"])
    after_failed = s["failed"] - before["failed"]
    retried_kill = retries_in(args.access_log) - retried_before
    log(f"SIGKILL of instance {victim.n}: {after_failed} failed of {after_requests} requests "
        f"in the {time.monotonic() - killed_at:.1f} s after it ({retried_kill} retried by nginx)")
    if before["failed"]:
        fail(f"before the SIGKILL: {before['failed']} failed: {before['failures']}")
    load_s = time.monotonic() - load_started

    # The other instances stop gracefully: exit status 0.
    if args.leave_running:
        victim.start()
        victim.wait_ready()
        with open(os.path.join(args.logdir, "pids"), "w") as f:
            f.write(" ".join(str(i.proc.pid) for i in instances) + "\n")
    else:
        for inst in instances:
            inst.stop()
        for inst in instances:
            if inst is victim:
                continue
            code = inst.proc.wait(SHUTDOWN_DELAY_S + SHUTDOWN_TIMEOUT_S + 5)
            if code != 0:
                fail(f"instance {inst.n} exited {code} after SIGTERM")

    summary = {
        "warmup_requests": warm_total,
        "hit_rate_requests": measured,
        "keyed_hit_rate": round(keyed_rate, 4),
        "unkeyed_hit_rate": round(unkeyed_rate, 4),
        "rolling_restart": rolling,
        "restarts": restart_log,
        "sigkill": {"requests_after": after_requests, "failed_after": after_failed,
                    "nginx_retried": retried_kill,
                    "failures": [f for _, f in s["failures"]][:3]},
        "load_seconds": round(load_s, 1),
        "total_seconds": round(time.monotonic() - t_start, 1),
    }
    with open(args.summary, "w") as f:
        json.dump(summary, f, indent=1)
    print_summary(summary)
    return 0


def rolling_restart_one(inst, budget):
    """SIGTERM, drain, exit 0, start again, serve again; returns timings."""
    t0 = time.monotonic()
    inst.stop(signal.SIGTERM)
    # Readiness turns 503 at once and stays so for the shutdown delay.
    saw_503 = False
    while time.monotonic() - t0 < SHUTDOWN_DELAY_S:
        status, _ = http_get(inst.port, "/readyz", timeout=1)
        if status == 503:
            saw_503 = True
            break
        time.sleep(0.05)
    if not saw_503:
        fail(f"instance {inst.n}: /readyz never answered 503 during the shutdown delay")
    try:
        code = inst.proc.wait(min(SHUTDOWN_DELAY_S + SHUTDOWN_TIMEOUT_S + 2, budget()))
    except subprocess.TimeoutExpired:
        fail(f"instance {inst.n} still running {time.monotonic() - t0:.1f} s after SIGTERM")
    if code != 0:
        fail(f"instance {inst.n} exited {code} after SIGTERM (see {inst.logpath})")
    exited = time.monotonic() - t0
    inst.start()
    inst.wait_ready()
    ready = time.monotonic() - t0
    # Back in rotation: it answers score requests through nginx (after the
    # upstream's fail_timeout, if nginx saw it refuse a connection).
    deadline = time.monotonic() + min(8.0, budget())
    while inst.score_requests() < 20:
        if time.monotonic() > deadline:
            fail(f"instance {inst.n} served no requests after its restart")
        time.sleep(0.1)
    serving = time.monotonic() - t0
    log(f"instance {inst.n}: SIGTERM, 503 on /readyz, exit 0 after {exited:.2f} s, "
        f"ready after {ready:.2f} s, serving again after {serving:.2f} s")
    return {"instance": inst.n, "exit_s": round(exited, 2), "ready_s": round(ready, 2),
            "serving_s": round(serving, 2)}


def retries_in(path):
    """Requests nginx sent to more than one instance (its $upstream_addr lists each)."""
    with open(path, encoding="utf-8") as f:
        return sum(1 for line in f if re.search(r'upstream="[^"]*,', line))


def print_summary(s):
    r = s["rolling_restart"]
    k = s["sigkill"]
    print()
    print("== loopback cluster: 3 x faan behind nginx")
    print(f"keyed hit rate after warm-up:   {s['keyed_hit_rate']:.1%} (>= 90% required)")
    print(f"unkeyed hit rate after warm-up: {s['unkeyed_hit_rate']:.1%} (about a third)")
    print(f"rolling restart:                {r['failed']} failed of {r['requests']} requests "
          f"({r['nginx_retried']} retried by nginx)")
    print(f"SIGKILL of one instance:        {k['failed_after']} failed of "
          f"{k['requests_after']} requests after it ({k['nginx_retried']} retried by nginx)")
    print(f"load: {s['load_seconds']} s; whole run {s['total_seconds']} s")


if __name__ == "__main__":
    sys.exit(main())
