// The page's pure logic: tiles and the hand box's notation.
// Run with `node --test web/tests/` (CI does; see .ci/run).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ALL_TILES, FLOWERS, glyph, flowerGlyph, fromGlyph, toMpsz, groupMpsz } from "../js/tiles.js";
import { parseEntry, entryText } from "../js/entry.js";
import { derive, emptyInput } from "../js/input.js";

test("every tile and bonus tile reads back from its glyph", () => {
  assert.equal(ALL_TILES.length, 34);
  for (const t of ALL_TILES) assert.deepEqual(fromGlyph(glyph(t)), { tile: t }, t);
  for (const f of FLOWERS) assert.deepEqual(fromGlyph(flowerGlyph(f)), { flower: f }, f);
  // The contract's code points, spot-checked: U+1F004 red (7z), U+1F006 white (5z), U+1F019 1p, U+1F010 1s.
  assert.equal(fromGlyph("\u{1F004}").tile, "7z");
  assert.equal(fromGlyph("\u{1F006}").tile, "5z");
  assert.equal(fromGlyph("\u{1F019}").tile, "1p");
  assert.equal(fromGlyph("\u{1F010}").tile, "1s");
  assert.equal(fromGlyph("\u{1F024}").flower, "F4");
});

test("MPSZ written sorted, or in entry order", () => {
  assert.equal(toMpsz(["5p", "2m", "1m", "1z"]), "12m5p1z");
  assert.equal(groupMpsz(["1m", "2m", "5p", "4m"]), "12m5p4m");
});

test("typed key by key, the winning tile is the last tile once its suit letter arrives", () => {
  const text = "123m456m789p234s55s";
  const winners = [];
  for (let i = 1; i <= text.length; i++) {
    const d = derive({ ...emptyInput(), text: text.slice(0, i) });
    winners.push(d.winning);
  }
  // After "123m": 3m; after "...234s5" and "...234s55" the 5s are pending: still 4s.
  assert.equal(winners[3], "3m", "after 123m");
  assert.equal(winners[text.length - 3], "4s", "after ...234s5 (pending)");
  assert.equal(winners[text.length - 2], "4s", "after ...234s55 (pending)");
  assert.equal(winners[text.length - 1], "5s", "after ...55s");
  const d = derive({ ...emptyInput(), text });
  assert.equal(d.tiles.length, 14);
  assert.equal(d.pending, "");
  assert.equal(derive({ ...emptyInput(), text: "123m5" }).pending, "5");
});

test("melds in brackets and in words", () => {
  const p = parseEntry("[777z] 123m (1111s) [2222p+] chow 4m pung 6z");
  assert.deepEqual(p.errors, []);
  assert.deepEqual(p.tiles, ["1m", "2m", "3m"]);
  assert.deepEqual(p.melds.map((m) => [m.kind, m.tiles.join(""), m.concealed, m.added]), [
    ["pung", "7z7z7z", false, false],
    ["kong", "1s1s1s1s", true, false],
    ["kong", "2p2p2p2p", false, true],
    ["chow", "4m5m6m", false, false],
    ["pung", "6z6z6z", false, false]
  ]);
  const words = parseEntry("concealed kong 1s added kong 2p kong 3p 碰 7z 暗槓 4s 上 1m 45m");
  assert.deepEqual(words.errors, []);
  assert.deepEqual(words.melds.map((m) => [m.kind, m.tiles[0], m.concealed, m.added]), [
    ["kong", "1s", true, false],
    ["kong", "2p", false, true],
    ["kong", "3p", false, false],
    ["pung", "7z", false, false],
    ["kong", "4s", true, false],
    ["chow", "1m", false, false]
  ]);
  assert.deepEqual(words.tiles, ["4m", "5m"]);
});

test("Unicode tiles alone or mixed with MPSZ", () => {
  const p = parseEntry("\u{1F007}\u{1F008}\u{1F009} 456p [\u{1F004}\u{1F004}\u{1F004}]");
  assert.deepEqual(p.errors, []);
  assert.deepEqual(p.tiles, ["1m", "2m", "3m", "4p", "5p", "6p"]);
  assert.deepEqual(p.melds[0].tiles, ["7z", "7z", "7z"]);
});

test("mistakes carry a code and the 1-based character", () => {
  const codes = (s) => parseEntry(s).errors.map((e) => [e.code, e.pos]);
  assert.deepEqual(codes("12x3m"), [["bad_char", 3]]);
  assert.deepEqual(codes("18z"), [["honour_range", 3]]);
  assert.deepEqual(codes("10m"), [["zero", 2]]);
  assert.deepEqual(codes("m"), [["suit_without_digits", 1]]);
  assert.deepEqual(codes("12m [124m]"), [["not_a_chow", 5]]);
  assert.deepEqual(codes("(777z)"), [["only_kong_flags", 1]]);
  assert.deepEqual(codes("[12m]"), [["meld_size", 1]]);
  assert.deepEqual(codes("[123m"), [["unclosed", 1]]);
  assert.deepEqual(codes("chow 8m"), [["chow_start", 1]]);
  assert.deepEqual(codes("pung"), [["meld_needs_tiles", 1]]);
  assert.deepEqual(codes("hello 1m"), [["unknown_word", 1]]);
  assert.deepEqual(codes("\u{1F022}"), [["flower_in_hand", 1]]);
  assert.deepEqual(codes("12 [777z]"), [["digits_without_suit", 1]]);
});

test("the box's text for a model reads back as the same model", () => {
  const p = parseEntry("pung 7z (1111s) 9p123m55s");
  const text = entryText(p.tiles, p.melds);
  assert.equal(text, "[777z] (1111s) 9p123m55s");
  const q = parseEntry(text);
  assert.deepEqual(q.tiles, p.tiles);
  assert.deepEqual(q.melds, p.melds);
});
