// Which patterns a quick win may tick (ticks.js), against the pattern table's
// `only_on` and `bonus_tiles` (GET /v1/patterns).
import { test } from "node:test";
import assert from "node:assert/strict";
import { fits, tickedKey } from "../js/ticks.js";

const selfDraw = { only_on: "self_draw", bonus_tiles: false };
const robbing = { only_on: "robbing_kong", bonus_tiles: false };
const earthly = { only_on: "discard", bonus_tiles: false };
const noFlowers = { only_on: null, bonus_tiles: true };
const allPungs = { only_on: null, bonus_tiles: false };
const onDiscard = { discarder: "Cat", ticked: [] };
const selfDrawn = { discarder: null, ticked: [] };

test("自摸 is offered on a self-drawn win only", () => {
  assert.equal(fits(selfDraw, onDiscard, true), false);
  assert.equal(fits(selfDraw, selfDrawn, true), true);
});

test("the earthly hand on a discard only; a robbed kong is entered as a discard", () => {
  assert.equal(fits(earthly, onDiscard, true), true);
  assert.equal(fits(earthly, selfDrawn, true), false);
  assert.equal(fits(robbing, onDiscard, true), true);
  assert.equal(fits(robbing, selfDrawn, true), false);
});

test("a flower pattern only where bonus tiles are in play", () => {
  assert.equal(fits(noFlowers, onDiscard, false), false);
  assert.equal(fits(noFlowers, onDiscard, true), true);
  assert.equal(fits(allPungs, onDiscard, false), true);
  assert.equal(fits(allPungs, selfDrawn, false), true);
});

test("a running total belongs to the ticks it was asked for, in order", () => {
  assert.equal(tickedKey({ ticked: ["dragon_pung", "all_pungs", "dragon_pung"] }), "dragon_pung,all_pungs,dragon_pung");
  assert.equal(tickedKey(null), "");
});
