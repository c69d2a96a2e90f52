"""Joins mahjong-cpp's figures (bench/mjcpp_chances.cpp, modes off, tegawari and
both, 13-tile entry point) into tests/fixtures/hand-changes-mahjong-cpp.jsonl:
60 discards ready, 220 at one and 220 at two from ready, seeded."""
import json, random
def load(p):
    return {(x['hand'], x['discard']): x for x in (json.loads(l) for l in open(p) if l[0] == '{')}
off, teg, both = load('off.jsonl'), load('teg.jsonl'), load('both.jsonl')
rows = []
for k, t in teg.items():
    if t['shanten'] not in (0, 1, 2):
        continue
    tiles, pung = k[0].split()
    rows.append({"tiles": tiles, "pung": pung, "discard": k[1], "shanten": t['shanten'],
                 "off": off[k]['win'], "hand_changes": t['win'], "shanten_down": both[k]['win']})
rng = random.Random(37)
pick = []
for s, n in ((0, 60), (1, 220), (2, 220)):
    r = [x for x in rows if x['shanten'] == s]
    rng.shuffle(r)
    pick += r[:n]
pick.sort(key=lambda x: (x['shanten'], x['tiles'], x['discard']))
with open('fixture.jsonl', 'w') as f:
    for x in pick:
        f.write(json.dumps(x, separators=(',', ':')) + '\n')
print(len(pick))
