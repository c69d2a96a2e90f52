#!/usr/bin/env python3
"""Seeded generator of the benchmark corpus: bench/corpus.jsonl.

Every line is one score request in the API's JSON shape
(`{"ruleset": ..., "hand": {...}, "context": {...}}`, see
docs/api.md), and every one is a legal winning hand that the
ruleset scores without error (`cargo bench --bench corpus` checks that before
timing anything).

The mix:

* random hands of every shape under `hkma` and `wisteria-court`
  (alternating): chows, pungs and kongs, declared or concealed, concealed
  and added kongs, honours, mixed and pure flushes, all pungs, all honours,
  terminals; wins by discard (with a legal discarder), self-draw (with kong
  and flower replacements, double kong, last tile), robbing a kong (only
  when the robbed tile is held once); seat and round winds at random;
  heavenly and earthly hands; a liable seat now and then. Flowers only under
  `wisteria-court` (they are off under `hkma`);
* the decomposer's worst cases: concealed pure-suit hands with many
  readings (`11122233344455m` and the like), hands with kongs, thirteen
  orphans and nine gates;
* seven pairs under `hefen-new-style` (neither hkma nor wisteria-court
  scores seven pairs).

Standard library only. Same seed, same file:

    python3 bench/gen_corpus.py                 # writes bench/corpus.jsonl
    python3 bench/gen_corpus.py --seed 7 --out /tmp/c.jsonl --count 5000
"""

import argparse
import json
import os
import random

SUITS = "mpsz"
WINDS = ["east", "south", "west", "north"]
BONUS = ["F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4"]
ORPHANS = [0, 8, 9, 17, 18, 26] + list(range(27, 34))


def suit_of(t):
    return t // 9


def num_of(t):
    return t % 9 + 1


def is_honor(t):
    return t >= 27


def mpsz(tiles):
    """Tile indices -> MPSZ text, sorted, digits grouped before each suit letter."""
    out = []
    for s in range(4):
        ds = sorted(num_of(t) for t in tiles if suit_of(t) == s)
        if ds:
            out.append("".join(str(d) for d in ds) + SUITS[s])
    return "".join(out)


def tile_name(t):
    return f"{num_of(t)}{SUITS[suit_of(t)]}"


def set_tiles(kind, t):
    if kind == "chow":
        return [t, t + 1, t + 2]
    if kind == "pung":
        return [t] * 3
    return [t] * 4


# ---------------------------------------------------------------- shapes

STYLES = {
    # name: (P(chow), P(pung), P(kong), allowed tiles function, P(declare))
    "any": (0.55, 0.33, 0.12, None, 0.35),
    "chows": (0.95, 0.05, 0.0, None, 0.3),
    "pungs": (0.0, 0.8, 0.2, None, 0.4),
    "concealed": (0.6, 0.4, 0.0, None, 0.0),
    "kongs": (0.2, 0.2, 0.6, None, 0.5),
    "honours": (0.3, 0.55, 0.15, "honours", 0.35),
    "mixed_flush": (0.5, 0.4, 0.1, "mixed", 0.35),
    "pure_flush": (0.6, 0.32, 0.08, "pure", 0.3),
    "terminals": (0.0, 0.85, 0.15, "terminals", 0.4),
}


def allowed_tiles(kind, rng, style_tiles, suit):
    """Candidate lowest tiles for a set/pair of `kind` under the style."""
    if kind == "chow":
        base = [s * 9 + n for s in range(3) for n in range(7)]
    else:
        base = list(range(34))
    if style_tiles is None:
        return base
    if style_tiles == "pure":
        return [t for t in base if suit_of(t) == suit]
    if style_tiles == "mixed":
        return [t for t in base if suit_of(t) == suit or is_honor(t)]
    if style_tiles == "honours":
        # Lots of honours, but chows allowed so the hand is not only honours.
        honours = [t for t in base if is_honor(t)]
        return honours if (honours and rng.random() < 0.7) else base
    if style_tiles == "terminals":
        return [t for t in base if t in ORPHANS]
    return base


def random_sets(rng, style):
    """Four sets and a pair with no tile more than four times, or None."""
    pc, pp, pk, style_tiles, _ = STYLES[style]
    suit = rng.randrange(3)
    counts = [0] * 34
    sets = []
    for _ in range(4):
        for _attempt in range(20):
            r = rng.random() * (pc + pp + pk)
            kind = "chow" if r < pc else ("pung" if r < pc + pp else "kong")
            cands = allowed_tiles(kind, rng, style_tiles, suit)
            if not cands:
                continue
            t = rng.choice(cands)
            ts = set_tiles(kind, t)
            if all(counts[x] + ts.count(x) <= 4 for x in set(ts)):
                for x in ts:
                    counts[x] += 1
                sets.append((kind, t))
                break
        else:
            return None
    for _attempt in range(20):
        cands = allowed_tiles("pair", rng, style_tiles, suit)
        t = rng.choice(cands)
        if counts[t] <= 2:
            return sets, t
    return None


def build_request(rng, ruleset, sets, pair, p_declare, flowers_ok):
    """Declares some sets, picks the winning tile and a legal context."""
    melds = []
    concealed = [pair, pair]
    for kind, t in sets:
        if kind == "kong":
            m = {"kind": "kong", "tiles": mpsz(set_tiles(kind, t))}
            r = rng.random()
            if r < 0.4:
                m["concealed"] = True
            elif r < 0.6:
                m["added"] = True
            melds.append(m)
        elif rng.random() < p_declare:
            melds.append({"kind": kind, "tiles": mpsz(set_tiles(kind, t))})
        else:
            concealed += set_tiles(kind, t)
    rng.shuffle(melds)
    win = rng.choice(concealed)
    all_counts = [0] * 34
    for t in [pair, pair] + [x for kind, t in sets for x in set_tiles(kind, t)]:
        all_counts[t] += 1
    kongs = sum(1 for m in melds if m["kind"] == "kong")

    hand = {"tiles": mpsz(concealed), "melds": melds, "winning_tile": tile_name(win)}
    flowers = []
    if flowers_ok and rng.random() < 0.6:
        flowers = sorted(rng.sample(BONUS, rng.randint(1, 4)))
        hand["flowers"] = flowers
    if not melds and rng.random() < 0.5:
        del hand["melds"]
    context = random_context(rng, win, all_counts, kongs, bool(melds), bool(flowers))
    return {"ruleset": ruleset, "hand": hand, "context": context}


def random_context(rng, win, all_counts, kongs, has_melds, has_flowers):
    seat = rng.choice(WINDS)
    ctx = {"win_by": None, "seat_wind": seat, "round_wind": rng.choice(WINDS)}
    others = [w for w in WINDS if w != seat]
    r = rng.random()
    if r < 0.12 and all_counts[win] == 1:
        ctx["win_by"] = "robbing_kong"
        ctx["discarder"] = rng.choice(others)
    elif r < 0.55:
        ctx["win_by"] = "discard"
        ctx["discarder"] = rng.choice(others)
    else:
        ctx["win_by"] = "self_draw"
    if ctx["win_by"] == "self_draw":
        r = rng.random()
        if kongs and r < 0.3:
            ctx["replacement"] = "kong"
            if kongs >= 2 and rng.random() < 0.4:
                ctx["double_kong"] = True
        elif has_flowers and r < 0.45:
            ctx["replacement"] = "flower"
    if ctx["win_by"] != "robbing_kong" and rng.random() < 0.06:
        ctx["last_tile"] = True
    if not has_melds and rng.random() < 0.04:
        # Heavenly (East's dealt hand) or earthly (on East's first discard).
        if rng.random() < 0.5:
            ctx.update(seat_wind="east", win_by="self_draw", heavenly=True)
            for k in ("discarder", "replacement", "double_kong"):
                ctx.pop(k, None)
        else:
            if seat == "east":
                ctx["seat_wind"] = seat = rng.choice(WINDS[1:])
            ctx.update(win_by="discard", discarder="east", earthly=True)
            for k in ("replacement", "double_kong"):
                ctx.pop(k, None)
    if rng.random() < 0.05:
        ctx["liable"] = rng.choice([w for w in WINDS if w != ctx["seat_wind"]])
    return ctx


# ---------------------------------------------------------- worst cases


def concealed_request(rng, ruleset, tiles, flowers_ok, win=None):
    """A fully concealed 14-tile hand with a random legal context."""
    if win is None:
        win = rng.choice(tiles)
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    hand = {"tiles": mpsz(tiles), "winning_tile": tile_name(win)}
    flowers = []
    if flowers_ok and rng.random() < 0.5:
        flowers = sorted(rng.sample(BONUS, rng.randint(1, 3)))
        hand["flowers"] = flowers
    ctx = random_context(rng, win, counts, 0, False, bool(flowers))
    return {"ruleset": ruleset, "hand": hand, "context": ctx}


def pure_flush_tiles(rng):
    """A concealed one-suit hand with many readings: runs of pungs and chows."""
    s = rng.randrange(3) * 9
    patterns = [
        # 111 222 333 444 55 style: every triple-run reads as pungs or chows.
        lambda a: [a] * 3 + [a + 1] * 3 + [a + 2] * 3 + [a + 3] * 3 + [a + 4] * 2,
        lambda a: [a] * 2 + [a + 1] * 3 + [a + 2] * 3 + [a + 3] * 3 + [a + 4] * 3,
        lambda a: [a] * 3 + [a + 1] * 3 + [a + 2] * 3 + [a + 3] * 2 + [a + 4] * 3,
        # 22 33 44 55 66 77 88: pairs of chows.
        lambda a: [a + k for k in range(7) for _ in range(2)],
        # 111 222 333 + chow + pair
        lambda a: [a] * 3 + [a + 1] * 3 + [a + 2] * 3 + [a + 3, a + 4, a + 5] + [a + 6] * 2,
        lambda a: [a] * 2 + [a + 1] * 4 + [a + 2] * 4 + [a + 3] * 4,
    ]
    while True:
        p = rng.choice(patterns)
        span = max(p(0)) + 1
        a = s + rng.randrange(9 - span + 1)
        tiles = p(a)
        if len(tiles) == 14 and all(tiles.count(t) <= 4 for t in set(tiles)):
            return tiles


def random_pure_concealed(rng):
    """A random concealed pure-suit hand (4 sets + pair in one suit)."""
    s = rng.randrange(3) * 9
    while True:
        counts = [0] * 9
        tiles = []
        ok = True
        for _ in range(4):
            if rng.random() < 0.55:
                a = rng.randrange(7)
                ts = [a, a + 1, a + 2]
            else:
                a = rng.randrange(9)
                ts = [a] * 3
            for x in ts:
                counts[x] += 1
            tiles += ts
        a = rng.randrange(9)
        counts[a] += 2
        tiles += [a, a]
        ok = all(c <= 4 for c in counts)
        if ok:
            return [s + t for t in tiles]


def nine_gates_tiles(rng):
    s = rng.randrange(3) * 9
    extra = rng.randrange(9)
    base = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8]
    return [s + t for t in base + [extra]]


def thirteen_orphans_tiles(rng):
    return ORPHANS + [rng.choice(ORPHANS)]


def seven_pairs_tiles(rng):
    kinds = rng.sample(range(34), 7)
    return [t for t in kinds for _ in range(2)]


def generate(seed, count):
    rng = random.Random(seed)
    out = []
    rulesets = ["hkma", "wisteria-court"]

    # Fixed worst cases first, under both rulesets.
    fixed = [
        ("11122233344455m", "5m"),
        ("11122233344455m", "1m"),
        ("22233344455566p", "4p"),
        ("11112222333344s", "4s"),
        ("11123455678999m", "5m"),
        ("11123456789999p", "9p"),
        ("22334455667788s", "8s"),
        ("119m19p19s1234567z", "1m"),
        ("19m19p19s12345677z", "7z"),
    ]
    for i, (tiles, win) in enumerate(fixed):
        for rs in rulesets:
            for win_by in ("self_draw", "discard"):
                ctx = {"win_by": win_by, "seat_wind": "south", "round_wind": "east"}
                if win_by == "discard":
                    ctx["discarder"] = "west"
                out.append(
                    {
                        "ruleset": rs,
                        "hand": {"tiles": tiles, "winning_tile": win},
                        "context": ctx,
                    }
                )
    # Kong-heavy fixed cases: four kongs, one of each kind of declaration.
    for rs in rulesets:
        out.append(
            {
                "ruleset": rs,
                "hand": {
                    "tiles": "55p",
                    "melds": [
                        {"kind": "kong", "tiles": "1111m", "concealed": True},
                        {"kind": "kong", "tiles": "7777z"},
                        {"kind": "kong", "tiles": "9999s", "added": True},
                        {"kind": "kong", "tiles": "3333p", "concealed": True},
                    ],
                    "winning_tile": "5p",
                },
                "context": {
                    "win_by": "self_draw",
                    "seat_wind": "east",
                    "round_wind": "east",
                    "replacement": "kong",
                    "double_kong": True,
                },
            }
        )

    n_special = count // 10
    mix = [
        ("any", 0.45),
        ("chows", 0.08),
        ("pungs", 0.08),
        ("concealed", 0.08),
        ("kongs", 0.07),
        ("honours", 0.08),
        ("mixed_flush", 0.08),
        ("pure_flush", 0.05),
        ("terminals", 0.03),
    ]
    names = [m[0] for m in mix]
    weights = [m[1] for m in mix]
    i = 0
    while len(out) < count - n_special:
        rs = rulesets[i % 2]
        i += 1
        style = rng.choices(names, weights)[0]
        got = random_sets(rng, style)
        if got is None:
            continue
        sets, pair = got
        out.append(
            build_request(rng, rs, sets, pair, STYLES[style][4], rs == "wisteria-court")
        )

    # Special and worst-case shapes, alternating rulesets.
    makers = [
        pure_flush_tiles,
        random_pure_concealed,
        random_pure_concealed,
        nine_gates_tiles,
        thirteen_orphans_tiles,
    ]
    k = 0
    while len(out) < count:
        rs = rulesets[k % 2]
        make = makers[k % len(makers)]
        k += 1
        tiles = make(rng)
        out.append(concealed_request(rng, rs, tiles, rs == "wisteria-court"))
    # Seven pairs where they score (hefen-new-style), on top of the count.
    for _ in range(max(20, count // 50)):
        out.append(concealed_request(rng, "hefen-new-style", seven_pairs_tiles(rng), True))
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--count", type=int, default=2400)
    ap.add_argument("--out", default=os.path.join(here, "corpus.jsonl"))
    a = ap.parse_args()
    reqs = generate(a.seed, a.count)
    with open(a.out, "w", encoding="utf-8", newline="\n") as f:
        for r in reqs:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")
    print(f"wrote {len(reqs)} requests to {a.out} (seed {a.seed})")


if __name__ == "__main__":
    main()
