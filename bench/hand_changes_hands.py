"""Hands for the hand-changes fixture: 11 concealed tiles and a declared
pung of white dragons (an open hand, so mahjong-cpp never declares riichi,
and every win has a scoring element), near ready: a complete hand with one
to three tiles replaced at random. Seeded; prints one hand a line."""
import random, sys

rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 37)
n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
KINDS = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]

def fmt(counts):
    out = ""
    for s in "mpsz":
        ranks = "".join(str(r) * counts[f"{r}{s}"] for r in range(1, 10) if f"{r}{s}" in counts)
        if ranks:
            out += ranks + s
    return out

seen = set()
while len(seen) < n:
    c = {k: 0 for k in KINDS}
    c["5z"] = 3  # the pung, counted while building
    ok = True
    for _ in range(3):
        if rng.random() < 0.7:
            s = rng.choice("mps"); r = rng.randint(1, 7)
            for d in range(3):
                c[f"{r + d}{s}"] += 1
        else:
            c[rng.choice(KINDS)] += 3
    c[rng.choice(KINDS)] += 2
    if any(v > 4 for v in c.values()):
        continue
    # 14 tiles: the pung and 11 concealed; replace 1 to 3 concealed tiles.
    c["5z"] -= 3
    tiles = [k for k in KINDS for _ in range(c[k])]
    for _ in range(rng.choice([1, 2, 2, 3, 3])):
        tiles.remove(rng.choice(tiles))
        while True:
            k = rng.choice(KINDS)
            if tiles.count(k) + (3 if k == "5z" else 0) < 4:
                tiles.append(k)
                break
    h = {k: tiles.count(k) for k in KINDS}
    line = f"{fmt(h)} 5z"
    if line not in seen:
        seen.add(line)
        print(line)
