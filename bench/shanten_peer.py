#!/usr/bin/env python3
"""The Python `mahjong` package's shanten on the hands of benches/analysis.rs
(group shanten_14), every form (regular, seven pairs, thirteen orphans),
timed like criterion: per hand, batches of calls timed with
time.perf_counter_ns, the median over batches per call.

    python3 -m venv target/peers-venv    # as bench/compare.sh does
    target/peers-venv/bin/pip install mahjong
    target/peers-venv/bin/python bench/shanten_peer.py [--batches 30]
"""

import argparse
import statistics
import time

from mahjong.shanten import Shanten

HANDS = [
    ("plain", "123m456m78p55s122z9s"),
    ("flush", "1112345678999m5m"),
    ("pairs", "1133m5577p99s1133z"),
    ("far", "147m258p369s1357z5m"),
]


def tiles_34(text):
    """MPSZ text -> 34 counts (m, p, s, z), the package's tiles_34."""
    out, digits = [0] * 34, []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        else:
            for d in digits:
                out["mpsz".index(ch) * 9 + d - 1] += 1
            digits = []
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batches", type=int, default=30)
    ap.add_argument("--calls", type=int, default=2000)
    args = ap.parse_args()
    sh = Shanten()
    for name, text in HANDS:
        t = tiles_34(text)
        value = sh.calculate_shanten(t, use_chiitoitsu=True, use_kokushi=True)
        per = []
        for _ in range(args.batches):
            start = time.perf_counter_ns()
            for _ in range(args.calls):
                sh.calculate_shanten(t, use_chiitoitsu=True, use_kokushi=True)
            per.append((time.perf_counter_ns() - start) / args.calls)
        print(f"{name:6} {text:22} shanten {value:2}  median {statistics.median(per) / 1000:8.2f} µs"
              f"  (min {min(per) / 1000:.2f})")


if __name__ == "__main__":
    main()
