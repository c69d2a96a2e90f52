// Which tile to discard: the request of POST /v1/analyze and what is shown of its answer.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { emptyInput, derive, toQuery, fromQuery } from "../js/input.js";
import { readyForAnalysis, parseSeen, parseDraws, analyzeBody, discardOptions, assumptionLine, bestWin, summarize, percent, chartGeometry } from "../js/discard.js";
import { mapApiError, describe, controlLabel, CODES } from "../js/format.js";
import { makeT } from "../js/i18n.js";
import { initialState, reduce } from "../js/state.js";
import { REQUESTS, requestKey } from "../js/requests.js";

const hand = (text) => { const s = { ...emptyInput(), text, ruleset: "hkma" }; return { s, d: derive(s) }; };

test("13 or 14 tiles (melds counted as three) go to POST /v1/analyze; 12 do not", () => {
  assert.equal(readyForAnalysis(hand("123m456m78p55s222z9s").d), true, "14 tiles");
  assert.equal(readyForAnalysis(hand("123m456m78p55s222z").d), true, "13 tiles");
  assert.equal(readyForAnalysis(hand("[222z] 123m456m78p55s9s").d), true, "11 concealed with a pung");
  assert.equal(readyForAnalysis(hand("123m456m78p55s22z").d), false, "12 tiles");
  assert.equal(readyForAnalysis(hand("123m456m78p55s222z9").d), false, "a digit without its suit");
});

test("the body: the hand without a winning tile, the winds, the tiles seen and the chances asked", () => {
  const { s, d } = hand("123m456m78p55s222z9s");
  assert.deepEqual(analyzeBody(s, d, { seen: "9s 1z1z", draws: 12, selfDrawOnly: false }), {
    ruleset: "hkma",
    hand: { tiles: "123456m78p559s222z" },
    context: { seat_wind: "south", round_wind: "east" },
    seen: "9s11z",
    chances: { draws: 12, discards: true }
  });
  const b = analyzeBody({ ...s, house: { min_faan: 1 } }, d, { seen: "", draws: null });
  assert.equal(b.seen, undefined, "nothing seen: no seen");
  assert.equal(b.chances, undefined, "no draws: no chances");
  assert.deepEqual(b.house_rules, { min_faan: 1 });
  assert.deepEqual(analyzeBody(s, d, { draws: 5, selfDrawOnly: true }).chances, { draws: 5, discards: false });
});

test("hand changes and stepping back a shanten go in the chances only when on, the second only with the first", () => {
  const { s, d } = hand("233456m999p99s111z");
  const chances = (input) => analyzeBody(input, d, discardOptions(input)).chances;
  // The default request is the one the page sent before these boxes.
  assert.deepEqual(chances(s), { draws: 12, discards: true });
  assert.deepEqual(chances({ ...s, handChanges: true }), { draws: 12, discards: true, hand_changes: true });
  assert.deepEqual(chances({ ...s, handChanges: true, shantenDown: true, selfDrawOnly: true, draws: "17" }),
    { draws: 17, discards: false, hand_changes: true, shanten_down: true });
  // Stepping back ticked, then hand changes turned off: neither is sent.
  assert.deepEqual(chances({ ...s, handChanges: false, shantenDown: true }), { draws: 12, discards: true });
  // No draws, no chances: nothing of either.
  assert.equal(chances({ ...s, draws: "", handChanges: true, shantenDown: true }), undefined);
});

test("what the figures assume, in both languages, from the chances asked", () => {
  const en = makeT("en"), zh = makeT("zh");
  assert.equal(assumptionLine({ draws: 12, discards: true }, en),
    "These chances assume nobody else wins, claims a tile or declares a kong first. Hand changes off: a draw that does not bring the hand nearer to ready is thrown at once.");
  assert.equal(assumptionLine({ draws: 12, discards: true }, zh),
    "以上機會假設期間無人食糊、上牌、碰牌或開槓。 不換牌：摸到不能令手牌更接近聽牌的牌，即刻打出。");
  assert.equal(assumptionLine({ draws: 12, discards: true, hand_changes: true }, en),
    "These chances assume nobody else wins, claims a tile or declares a kong first. Hand changes on: the player may keep a draw that widens the wait or builds value, throwing another tile that keeps the hand as near to ready.");
  assert.equal(assumptionLine({ draws: 12, discards: true, hand_changes: true }, zh),
    "以上機會假設期間無人食糊、上牌、碰牌或開槓。 可換牌：摸到可以改善聽口或者做番的牌可以留低，改打另一隻不會令向聽增加的牌。");
  assert.match(assumptionLine({ draws: 12, hand_changes: true, shanten_down: true }, en), /stepping back a shanten too: .*a tile further from ready\.$/);
  assert.match(assumptionLine({ draws: 12, hand_changes: true, shanten_down: true }, zh), /亦可退一向聽：.*離聽牌遠一步。$/);
  assert.equal(assumptionLine(null, en), "", "no chances asked: nothing assumed");
});

test("the answer on screen keeps the chances it was asked with: the line is the figures', not the boxes'", () => {
  const s0 = initialState({ input: { ...emptyInput(), text: "233456m999p99s111z", ruleset: "hkma", view: "discard" } });
  const on = reduce(s0, { type: "handChangesSet", on: true });
  const body = REQUESTS.discard.body(on);
  assert.deepEqual(body.chances, { draws: 12, discards: true, hand_changes: true });
  const shown = reduce(on, { type: "answered", view: "discard", res: {}, ctx: {}, key: requestKey(on, "discard"), status: { key: "status.analyzed" }, chances: body.chances, seq: 1 });
  // The box turned off again before the next answer: the figures on screen are still those with hand changes.
  const off = reduce(shown, { type: "handChangesSet", on: false });
  assert.deepEqual(off.shown.chances, { draws: 12, discards: true, hand_changes: true });
  assert.match(assumptionLine(off.shown.chances, makeT("en")), /Hand changes on:/);
  assert.notEqual(requestKey(off, "discard"), off.shown.key, "and the answer is out of date");
  // Stepping back goes when hand changes go: turned on again, it is off.
  const both = reduce(reduce(s0, { type: "handChangesSet", on: true }), { type: "shantenDownSet", on: true });
  assert.equal(both.input.shantenDown, true);
  const again = reduce(reduce(both, { type: "handChangesSet", on: false }), { type: "handChangesSet", on: true });
  assert.deepEqual([again.input.handChanges, again.input.shantenDown], [true, false]);
});

test("the tiles seen and the draws left, as typed", () => {
  assert.deepEqual(parseSeen("1z1z9s"), { tiles: ["1z", "1z", "9s"], errors: [] });
  assert.equal(parseSeen("1z 9").errors.length, 1, "a digit without its suit");
  assert.equal(parseSeen("1x").errors[0].code, "bad_char");
  assert.deepEqual(parseDraws(""), { value: null });
  assert.deepEqual(parseDraws("12"), { value: 12 });
  assert.equal(parseDraws("0").error.pointer, "/chances/draws");
  assert.equal(parseDraws("31").error.key, "discard.err_draws");
  assert.ok(parseDraws("2.5").error);
});

test("the inputs go in the URL and read back; the default 12 draws is left out", () => {
  const s = { ...emptyInput(), text: "123m456m78p55s222z9s", seen: "1z1z9s", draws: "", selfDrawOnly: true, view: "discard" };
  const q = toQuery(s);
  assert.match(q, /seen=1z1z9s/);
  assert.match(q, /draws=none/);
  assert.match(q, /view=discard/);
  const back = fromQuery("?" + q);
  assert.equal(back.seen, "1z1z9s");
  assert.equal(back.draws, "");
  assert.equal(back.selfDrawOnly, true);
  assert.equal(back.view, "discard");
  assert.doesNotMatch(toQuery({ ...emptyInput() }), /draws/);
});

test("hand changes and stepping back a shanten are kept in the URL; stepping back never alone", () => {
  const s = { ...emptyInput(), text: "233456m999p99s111z", view: "discard" };
  assert.doesNotMatch(toQuery(s), /hand_changes|shanten_down/, "off: the URL as before");
  const on = toQuery({ ...s, handChanges: true, shantenDown: true });
  assert.match(on, /hand_changes=true/);
  assert.match(on, /shanten_down=true/);
  assert.deepEqual([fromQuery("?" + on).handChanges, fromQuery("?" + on).shantenDown], [true, true]);
  assert.doesNotMatch(toQuery({ ...s, shantenDown: true }), /shanten_down/);
  assert.equal(fromQuery("?shanten_down=true").shantenDown, false, "stepping back without hand changes is not read");
  assert.equal(fromQuery("?hand_changes=1").handChanges, false, "only true turns it on");
});

// The answer of POST /v1/analyze for 123m456m78p55s222z9s at the south seat
// under hkma, 1z1z9s seen, 12 draws (tests/fixtures/analyze-9s.json, from the server).
const answer = JSON.parse(readFileSync(new URL("./fixtures/analyze-9s.json", import.meta.url), "utf8"));

test("the ranked discards, best first: 9s leaves it ready on 6p/9p", () => {
  const v = summarize(answer);
  assert.equal(v.discarding, true);
  assert.equal(v.chances, true);
  assert.deepEqual(v.rows.map((r) => r.tile), ["9s", "1m", "4m", "6m", "8p", "7p", "2m", "3m", "5m", "5s", "2z"]);
  const b = v.best;
  assert.deepEqual([b.tile, b.shanten, b.count], ["9s", 0, 8]);
  assert.deepEqual(b.acceptance, [{ tile: "6p", unseen: 4 }, { tile: "9p", unseen: 4 }]);
  // Concealed hand 1 + seat wind 1 = 2 faan on a discard (below 3), 3 self-drawn.
  assert.deepEqual(b.waits.map((w) => [w.tile, w.faan, w.meets]), [["6p", 3, "self_draw"], ["9p", 3, "self_draw"]]);
  assert.equal(percent(b.win), "65.2%");
  assert.equal(b.curve.length, 12);
  assert.equal(v.rows[1].waits.length, 0, "1m leaves it one from ready: no waits");
});

test("a wait's best win against the minimum", () => {
  const s = (faan, meets) => ({ total_faan: faan, meets_minimum: meets, base_points: faan * 2 });
  assert.deepEqual(bestWin({ tile: "5m", unseen: 2, discard: s(3, true), self_draw: s(4, true) }), { tile: "5m", unseen: 2, faan: 4, meets: "discard", points: 8 });
  assert.equal(bestWin({ tile: "5m", unseen: 2, discard: s(2, false), self_draw: s(3, true) }).meets, "self_draw");
  assert.equal(bestWin({ tile: "5m", unseen: 2, discard: s(1, false), self_draw: s(2, false) }).meets, "none");
  assert.equal(bestWin({ tile: "5m", unseen: 0, discard: null, self_draw: null }).faan, null);
});

test("13 tiles: one row, the hand itself", () => {
  const v = summarize({ ruleset: "hkma", shanten: { standard: 1, seven_pairs: null, thirteen_orphans: 8, best: 1 }, acceptance: [{ tile: "6p", unseen: 4 }], acceptance_count: 4 });
  assert.equal(v.discarding, false);
  assert.deepEqual([v.best.tile, v.best.shanten, v.best.count, v.best.curve], [null, 1, 4, null]);
  assert.equal(v.chances, false);
});

test("the chart: one point per draw, 0% at the bottom, the top the next 10% above", () => {
  const g = chartGeometry([0.1, 0.25, 0.42], 320, 150, { left: 20, right: 0, top: 0, bottom: 30 });
  assert.equal(g.top, 0.5);
  assert.equal(g.points, "20,96 170,60 320,19.2");
  assert.deepEqual(g.xTicks.map((t) => t.t), [1, 2, 3]);
  assert.deepEqual(g.yTicks.map((t) => t.label), ["0%", "25%", "50%"]);
  assert.deepEqual(chartGeometry(new Array(30).fill(0.5), 320, 150).xTicks.map((t) => t.t), [1, 6, 11, 16, 21, 26, 30]);
});

test("the server's refusals of an analysis, worded in both languages", () => {
  const en = makeT("en"), zh = makeT("zh");
  const south = { seat_wind: "south" };
  const count = mapApiError({ pointer: "/hand/tiles", code: "analysis_tile_count", params: { drawing: 13, discarding: 14, melds: 0, got: 12 } });
  assert.equal(describe(count, en, south), "South's hand has 12 concealed tiles; beside the declared melds (0) Which tile to discard needs 13 (waiting for a draw) or 14 (about to discard).");
  assert.equal(describe(count, zh, south), "南家手牌門前有 12 張；有 0 組副露時，打邊隻要 13 張（等摸牌）或 14 張（要打牌）。");
  const far = mapApiError({ pointer: "/chances", code: "chances_too_far", params: { shanten: 4, max: 3 } });
  assert.equal(describe(far, en), "The hand is 4 tiles from ready; the chance to win is worked out up to 3. Empty Draws left to see the table.");
  assert.ok(CODES.seen_over_four);
  // The hand-changes graph's bound (400,000 states): at the hand-changes box, whose label the summary names.
  const large = mapApiError({ pointer: "/chances", code: "chances_too_large", params: { max: 400000 } });
  assert.equal(large.pointer, "/chances/hand_changes");
  assert.equal(describe(large, en), "With hand changes this hand reaches more than 400,000 hands to weigh: too many to work out. Turn off Hand changes (or Step back a shanten too), or analyse a hand nearer ready.");
  assert.equal(describe(large, zh), "換牌時這副牌可以變成超過 400,000 副牌，太多計唔到。請取消換牌（或退一向聽），或者分析一副較接近聽牌的牌。");
  assert.equal(controlLabel(large.pointer, en), "Hand changes");
  assert.equal(controlLabel(large.pointer, zh), "換牌");
});
