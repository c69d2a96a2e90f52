#!/usr/bin/env python3
"""Times two peer scorers on the corpus hands they can express, and
compares them with faan's per-hand times on the same hands.

Peers (installed from PyPI by bench/compare.sh into a throwaway venv):

* ``hk-mahjong`` (module ``hk_mahjong``), a Hong Kong faan scorer. Its full
  scoring of a winning hand is what its game does on a win
  (``GameState.do_self_drawn_win`` / discard win):
  ``check_win(concealed, melds)`` (backtracking decomposition plus thirteen
  orphans), then ``score_hand(ScoringContext(...))`` for every
  decomposition, keeping the best. Every standard hand and thirteen orphans
  is expressible (melds chow/pong/kong/concealed kong, bonus tiles, seat and
  prevailing wind, self-draw, last tile, kong replacement, robbing a kong).
  It does not score seven pairs, so those hands are skipped.
* ``mahjong`` (the riichi calculator):
  ``HandCalculator.estimate_hand_value(tiles, win_tile, melds, config=...)``
  with its decomposition cache (``HandDivider._divide_hand_impl``, an
  ``lru_cache``) cleared before every call and fresh ``Meld`` objects (their
  ``tiles_34`` is a cached property). Standard four-sets-and-a-pair hands and
  thirteen orphans convert as they are (winds and dragons map one to one);
  chows/pungs/kongs become CHI/PON/KAN (a concealed kong is a closed KAN).
  Riichi scoring differs (yaku, fu, dora): only the speed is compared. A
  hand with no riichi yaku still goes through decomposition and yaku
  evaluation before the calculator says so; those calls are timed too and
  counted in the "no yaku" column.

The conversion from the request to each peer's objects is not timed. The
table gives two figures for faan on the same hands: ``score`` (what a
request costs: parsing the MPSZ text, validating, then scoring, so the
comparison favours the peers) and ``score_hand`` (the validated hand:
decompose, evaluate every reading, choose, settle; the work the peers are
timed on, since their input is already converted). Each hand is timed ``--repeats`` times with
``time.perf_counter_ns``; a hand's time is the median of its repeats.

Usage: peers.py --ours OURS_JSON [--corpus bench/corpus.jsonl] [--repeats 5]
       [--max-hands N] [--json OUT]
where OURS_JSON is the per-hand timing written by
``FAAN_CORPUS_JSON=... cargo bench --bench corpus``.
"""

import argparse
import json
import os
import statistics
import sys
import time

SUITS = "mpsz"


def parse_mpsz(text):
    """MPSZ text -> list of tile indices 0..33 (m, p, s, z)."""
    out, digits = [], []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        elif ch in SUITS:
            base = SUITS.index(ch) * 9
            out += [base + d - 1 for d in digits]
            digits = []
        elif ch.isspace():
            continue
        else:
            raise ValueError(f"bad MPSZ {text!r}")
    if digits:
        raise ValueError(f"trailing digits in {text!r}")
    return out


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def time_calls(fn, setup, repeats):
    """Median over `repeats` of one call of fn(*setup()) in ns (setup untimed)."""
    ts = []
    for _ in range(repeats):
        args = setup()
        t0 = time.perf_counter_ns()
        fn(*args)
        ts.append(time.perf_counter_ns() - t0)
    return statistics.median(ts)


# ------------------------------------------------------------ hk-mahjong


class HkMahjong:
    name = "hk-mahjong"

    def __init__(self):
        from hk_mahjong.core import meld as M
        from hk_mahjong.core import scoring as S
        from hk_mahjong.core import tiles as T
        from hk_mahjong.core import win_check as W

        self.M, self.S, self.T, self.W = M, S, T, W
        suits = [T.Suit.CHARACTERS, T.Suit.DOTS, T.Suit.BAMBOO]
        winds = [T.Wind.EAST, T.Wind.SOUTH, T.Wind.WEST, T.Wind.NORTH]
        dragons = [T.Dragon.WHITE, T.Dragon.GREEN, T.Dragon.RED]
        self.tile = []
        for i in range(34):
            if i < 27:
                self.tile.append(T.make_suited(suits[i // 9], i % 9 + 1))
            elif i < 31:
                self.tile.append(T.make_wind(winds[i - 27]))
            else:
                self.tile.append(T.make_dragon(dragons[i - 31]))
        self.wind = dict(zip(["east", "south", "west", "north"], winds))
        self.bonus = {
            f"{p}{n}": T.make_bonus(bt, n)
            for p, bt in (("F", T.BonusType.FLOWER), ("S", T.BonusType.SEASON))
            for n in range(1, 5)
        }

    def convert(self, req):
        M = self.M
        h, c = req["hand"], req["context"]
        concealed = [self.tile[i] for i in parse_mpsz(h["tiles"])]
        melds = []
        for m in h.get("melds", []):
            ts = [self.tile[i] for i in parse_mpsz(m["tiles"])]
            if m["kind"] == "chow":
                melds.append(M.make_chow(*ts))
            elif m["kind"] == "pung":
                melds.append(M.make_pong(ts[0]))
            else:
                melds.append(M.make_kong(ts[0], concealed=bool(m.get("concealed"))))
        win = self.tile[parse_mpsz(h["winning_tile"])[0]]
        bonus = [self.bonus[f] for f in h.get("flowers", [])]
        kw = dict(
            exposed_melds=melds,
            concealed_tiles=concealed,
            bonus_tiles=bonus,
            winning_tile=win,
            self_drawn=c["win_by"] == "self_draw",
            seat_wind=self.wind[c["seat_wind"]],
            prevailing_wind=self.wind[c["round_wind"]],
            is_last_tile=bool(c.get("last_tile")),
            is_kong_replacement=c.get("replacement") == "kong",
            is_robbing_kong=c["win_by"] == "robbing_kong",
        )
        if not self.W.check_win(concealed, melds):
            return None  # e.g. seven pairs: not a hand it scores
        return (concealed, melds, kw)

    def score(self, concealed, melds, kw):
        S, W = self.S, self.W
        best = None
        for d in W.check_win(concealed, melds):
            r = S.score_hand(S.ScoringContext(decomposition=d, **kw))
            if best is None or r.total_faan > best.total_faan:
                best = r
        return best

    def timed(self, conv, repeats):
        return time_calls(self.score, lambda: conv, repeats), None


# ---------------------------------------------------------------- mahjong


class Riichi:
    name = "mahjong (riichi)"

    def __init__(self):
        from mahjong.hand_calculating.divider import HandDivider
        from mahjong.hand_calculating.hand import HandCalculator
        from mahjong.hand_calculating.hand_config import HandConfig
        from mahjong.meld import Meld

        self.HandDivider, self.HandCalculator = HandDivider, HandCalculator
        self.HandConfig, self.Meld = HandConfig, Meld
        self.calc = HandCalculator()
        self.winds = {"east": 27, "south": 28, "west": 29, "north": 30}

    def convert(self, req):
        h, c = req["hand"], req["context"]
        used = [0] * 34

        def take(i):
            if used[i] >= 4:
                raise ValueError("fifth copy")
            used[i] += 1
            return 4 * i + used[i] - 1

        concealed = [take(i) for i in parse_mpsz(h["tiles"])]
        melds = []
        for m in h.get("melds", []):
            ids = [take(i) for i in parse_mpsz(m["tiles"])]
            kind = {"chow": "chi", "pung": "pon", "kong": "kan"}[m["kind"]]
            opened = not (m["kind"] == "kong" and m.get("concealed"))
            melds.append((kind, ids, opened))
        w = parse_mpsz(h["winning_tile"])[0]
        win = next(t for t in concealed if t // 4 == w)
        tiles = concealed + [t for _, ids, _ in melds for t in ids]
        # Seven pairs would score as chiitoitsu; keep to the shapes both share.
        if req["ruleset"] not in ("hkma", "wisteria-court"):
            return None
        cfg = dict(
            is_tsumo=c["win_by"] == "self_draw",
            is_rinshan=c.get("replacement") == "kong",
            is_chankan=c["win_by"] == "robbing_kong",
            is_haitei=bool(c.get("last_tile")) and c["win_by"] == "self_draw",
            player_wind=self.winds[c["seat_wind"]],
            round_wind=self.winds[c["round_wind"]],
        )
        return (tiles, win, melds, cfg)

    def setup(self, conv):
        tiles, win, melds, cfg = conv
        self.HandDivider._divide_hand_impl.cache_clear()
        ms = [self.Meld(meld_type=k, tiles=ids, opened=o) for k, ids, o in melds]
        return (tiles, win, ms or None, self.HandConfig(**cfg))

    def score(self, tiles, win, melds, cfg):
        return self.calc.estimate_hand_value(tiles, win, melds=melds, config=cfg)

    def timed(self, conv, repeats):
        t = time_calls(self.score, lambda: self.setup(conv), repeats)
        r = self.score(*self.setup(conv))
        return t, r.error


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description="time peer scorers on the corpus")
    ap.add_argument("--corpus", default=os.path.join(here, "corpus.jsonl"))
    ap.add_argument("--ours", required=True, help="per-hand JSON from the corpus bench")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--max-hands", type=int, default=0, help="0: every hand")
    ap.add_argument("--json", help="write the table as JSON here")
    a = ap.parse_args()

    reqs = [json.loads(l) for l in open(a.corpus, encoding="utf-8") if l.strip()]
    our_doc = json.load(open(a.ours))["hands"]
    ours = {h["line"]: h["ns"] for h in our_doc}
    ours_core = {h["line"]: h["score_hand_ns"] for h in our_doc if "score_hand_ns" in h}
    if a.max_hands:
        reqs = reqs[: a.max_hands]

    rows = []
    for peer in (HkMahjong(), Riichi()):
        times, our_times, core_times, errors, skipped = [], [], [], {}, 0
        t_start = time.time()
        for line, req in enumerate(reqs):
            try:
                conv = peer.convert(req)
            except (ValueError, KeyError, TypeError):
                conv = None
            if conv is None or line not in ours:
                skipped += 1
                continue
            t, err = peer.timed(conv, a.repeats)
            if err:
                errors[err] = errors.get(err, 0) + 1
            times.append(t)
            our_times.append(ours[line])
            if line in ours_core:
                core_times.append(ours_core[line])
        pm, om = median(times), median(our_times)
        cm = median(core_times) if len(core_times) == len(times) and times else None
        rows.append(
            {
                "peer": peer.name,
                "hands": len(times),
                "skipped": skipped,
                "peer_median_ns": pm,
                "peer_p99_ns": sorted(times)[int(0.99 * (len(times) - 1))] if times else None,
                "our_median_ns": om,
                "ratio": pm / om if om else None,
                "our_score_hand_median_ns": cm,
                "ratio_score_hand": pm / cm if cm else None,
                "peer_errors": errors,
                "seconds": round(time.time() - t_start, 1),
            }
        )
        print(f"{peer.name}: {len(times)} hands timed in {rows[-1]['seconds']} s", file=sys.stderr)

    print()
    print(f"{'peer':<18} {'hands':>6} {'peer median':>14} {'our score':>10} {'ratio':>7} {'our score_hand':>15} {'ratio':>7}  notes")
    for r in rows:
        notes = f"skipped {r['skipped']}"
        if r["peer_errors"]:
            notes += "; peer answers: " + ", ".join(f"{k} x{v}" for k, v in sorted(r["peer_errors"].items()))
        core = (
            f"{r['our_score_hand_median_ns']:>12.0f} ns {r['ratio_score_hand']:>6.0f}x"
            if r["ratio_score_hand"]
            else f"{'-':>15} {'-':>7}"
        )
        print(
            f"{r['peer']:<18} {r['hands']:>6} {r['peer_median_ns'] / 1000:>11.1f} us "
            f"{r['our_median_ns']:>7.0f} ns {r['ratio']:>6.0f}x {core}  {notes}"
        )
    print("\nscore: request to result (parse, validate, score); score_hand: the validated hand (the peers' work).")
    print("Target: faan at least 500x faster than each peer (ratio >= 500).")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
