// The page's store: its transitions, each from a state to a new one, with
// the values worked out by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialState, reduce, createStore, houseDocument, seatName, urlFor, winProblems, nightWith, previewReady } from "../js/state.js";
import { emptyNight } from "../js/ledger.js";

const PLAYERS = ["Ann", "Ben", "Cat", "Dan"];
const run = (s, ...actions) => actions.reduce(reduce, s);
const seatedNight = () => ({ ...emptyNight(), players: PLAYERS.slice() });
// A chart as GET /v1/rulesets/{id} gives it, cut to what the transitions read.
const CHART = { id: "hkma", name: "HKMA", name_zh: "港麻", patterns: [{ id: "all_chows", faan: 1 }, { id: "seven_pairs", faan: 4 }], exclusive: [] };

test("every field is declared at the start, and a transition never changes the state it is given", () => {
  const s = initialState();
  assert.deepEqual(Object.keys(s).sort(), ["connection", "doc", "errors", "input", "lang", "night", "panel", "preview", "quick", "ruleAsk", "said", "server", "shared", "shown", "status", "tableAnswer", "tableWinner", "target", "undone", "viewer"]);
  const frozen = JSON.stringify(s);
  const t = reduce(s, { type: "typed", text: "123m" });
  assert.equal(JSON.stringify(s), frozen, "the state given is unchanged");
  assert.equal(t.input.text, "123m");
  assert.notEqual(t, s);
  assert.throws(() => reduce(s, { type: "noSuchThing" }), /no transition noSuchThing/);
});

test("the store tells its listeners the new state and the one before, and only on a change", () => {
  const store = createStore(initialState());
  const seen = [];
  store.subscribe((s, prev) => seen.push([prev.input.text, s.input.text]));
  store.dispatch({ type: "typed", text: "1m" });
  // A winner chosen with nobody seated changes nothing: no new state, no call.
  store.dispatch({ type: "winnerChosen", winner: "Ben", discarder: "" });
  assert.deepEqual(seen, [["", "1m"]]);
  assert.equal(store.get().input.text, "1m");
});

test("palette taps: a tile to the hand, a meld declared (the palette back to the hand), a fifth copy refused", () => {
  let s = run(initialState(), { type: "tileTapped", tile: "1m" });
  assert.equal(s.input.text, "1m");
  assert.deepEqual(s.said, { key: "said.added", params: { tile: "1m" } });
  s = run(s, { type: "targetChosen", target: "pung" }, { type: "tileTapped", tile: "7z" });
  // The meld goes first in the box, the concealed tile after it.
  assert.equal(s.input.text, "[777z] 1m");
  assert.equal(s.target, "hand", "after a meld the next tap goes to the hand");
  assert.deepEqual(s.said, { key: "said.declared", params: { meld: "Pung", tiles: ["7z", "7z", "7z"] } });
  // In Chinese the meld is named in Chinese: a concealed kong is 暗槓, in round brackets.
  const zh = run({ ...s, lang: "zh" }, { type: "targetChosen", target: "kong-concealed" }, { type: "tileTapped", tile: "5p" });
  assert.equal(zh.input.text, "[777z] (5555p) 1m");
  assert.equal(zh.said.params.meld, "暗槓");
  assert.deepEqual(zh.said.params.tiles, ["5p", "5p", "5p", "5p"]);
  // A fifth 7z: three in the pung and one more tapped make four; the fifth is refused.
  const four = run(s, { type: "tileTapped", tile: "7z" });
  const five = run(four, { type: "tileTapped", tile: "7z" });
  assert.equal(five.input, four.input, "the inputs stay as they were");
  assert.deepEqual(five.said, { key: "refused.fifth_copy", params: { tile: "7z" } });
});

test("the win controls: switching to a discard names the player before the winner", () => {
  const fields = { seat_wind: "south", round_wind: "east", win_by: "discard", discarder: "", replacement: "none", liable: "", extras: ["last_tile"] };
  const s = run(initialState(), { type: "contextChanged", fields });
  // South wins on a discard: East, the seat before South, discarded.
  assert.equal(s.input.context.discarder, "east");
  assert.equal(s.input.context.last_tile, true);
  assert.equal(s.input.context.heavenly, false);
  // Back to self-drawn: no discarder.
  const back = run(s, { type: "contextChanged", fields: { ...fields, win_by: "self_draw", discarder: "east" } });
  assert.equal(back.input.context.discarder, "");
});

test("the House rules panel's controls: the house rules they make, patterns kept", () => {
  const values = { min_faan: " 3 ", limit: "", flowers: "false", points: "table", points_table: "1, 2, x", discard_payment: "", limits_add: "", limits_pay: "" };
  let s = run(initialState(), { type: "patternSet", id: "seven_pairs", value: "6" }, { type: "houseControls", values });
  // "x" is not a count of points: no table is sent, but the chooser stays on "a table".
  assert.deepEqual(s.input.house, { min_faan: 3, flowers: false, patterns: { seven_pairs: 6 } });
  assert.equal(s.panel.pointsTable, true);
  s = run(s, { type: "houseControls", values: { ...values, points_table: "1 2 4 8" } });
  assert.deepEqual(s.input.house.points, [1, 2, 4, 8]);
  assert.match(urlFor(s, {}), /points=1%2C2%2C4%2C8/);
});

test("the contains list being edited is the panel's, not the house rules'", () => {
  const s = run(initialState(), { type: "containsEditing", id: "seven_pairs" });
  assert.equal(s.panel.editing, "seven_pairs");
  assert.deepEqual(s.input.house, {}, "choosing which list to show changes no rule");
});

test("the ruleset document: made on request, following the house rules while shown, its hash until they change", () => {
  let s = initialState();
  s = run(s, { type: "detailLoaded", id: "hkma", detail: CHART }, { type: "rulesetChosen", ruleset: "hkma" });
  assert.equal(houseDocument(s), null, "nothing changed: no document");
  s = run(s, { type: "documentShown" });
  assert.deepEqual([s.doc.document, s.doc.state, s.doc.key], [null, "none", "house.doc_nothing"]);
  s = run(s, { type: "patternSet", id: "all_chows", value: "2" }, { type: "documentShown" });
  assert.deepEqual(s.doc.document, { extends: "hkma", id: "custom-hkma", name: "HKMA (house rules)", name_zh: "港麻（自訂規則）", patterns: { all_chows: { faan: 2 } } });
  const hash = "ab".repeat(32);
  s = run(s, { type: "documentChecked", hash });
  assert.deepEqual([s.doc.state, s.doc.key, s.doc.params, s.doc.hash], ["valid", "house.doc_valid", { hash: "abababababab" }, hash]);
  // A house rule changed while the document shows: the document follows, the hash goes.
  s = run(s, { type: "patternSet", id: "seven_pairs", value: "off" });
  assert.deepEqual(s.doc.document.patterns, { all_chows: { faan: 2 }, seven_pairs: null });
  assert.deepEqual([s.doc.state, s.doc.hash], ["shown", ""]);
  // The page's rules compared beside the built-in ones: the document goes with the request.
  assert.equal(run(s, { type: "compareCustomSet", on: true }).input.compareCustom, true);
});

test("a night's table rules: kept with the night, a bad stake refused at its control, kept for the next night", () => {
  let s = { ...initialState(), night: seatedNight() };
  s = run(s, { type: "tableRuleSet", key: "stake", raw: "$0.50" }, { type: "tableRuleSet", key: "dealer_keeps_on_draw", raw: "false" });
  assert.deepEqual(s.night.rules, { stake: 0.5, dealer_keeps_on_draw: false });
  const bad = run(s, { type: "tableRuleSet", key: "stake", raw: "1.2345678" });
  assert.equal(bad.night, s.night, "a refused stake keeps the night");
  assert.deepEqual(bad.errors.messages.map((m) => [m.pointer, m.key]), [["/house_rules/stake", "table.err_stake_decimals"]]);
  // Back to the ruleset's: the rule goes, and the problem with it.
  const cleared = run(bad, { type: "tableRuleSet", key: "stake", raw: "" });
  assert.deepEqual(cleared.night.rules, { dealer_keeps_on_draw: false });
  assert.equal(cleared.errors, null);
  // A new night keeps the players and the rules fixed at the start; the hands go.
  const played = { ...s, night: { ...s.night, hands: [{ result: "draw" }] }, tableAnswer: { hands: [] } };
  const next = run(played, { type: "nightStarted" });
  assert.deepEqual(next.night, { players: PLAYERS, hands: [], pending: [], rules: { stake: 0.5, dealer_keeps_on_draw: false } });
  assert.equal(next.tableAnswer, null);
});

test("the winner chosen by name: the seat wind and discarder follow the seating", () => {
  // The first hand: Ann deals (East), Ben South, Cat West, Dan North.
  let s = { ...initialState(), night: seatedNight() };
  assert.equal(seatName(s, "west"), "Cat");
  s = run(s, { type: "winnerChosen", winner: "Ben", discarder: "Dan" });
  assert.deepEqual([s.tableWinner, s.input.context.seat_wind, s.input.context.win_by, s.input.context.discarder], ["Ben", "south", "discard", "north"]);
  // Not seated (a name missing): nothing follows.
  const empty = initialState();
  assert.equal(run(empty, { type: "winnerChosen", winner: "Ben", discarder: "" }), empty);
});

test("a second winner on the same discard: the hand staged, the next seat after the discarder, the shared tile preset", () => {
  let s = { ...initialState(), night: seatedNight() };
  s = run(s, { type: "winnerChosen", winner: "Ben", discarder: "Dan" }, { type: "typed", text: "123m456m789m234p55p" });
  assert.deepEqual(winProblems(s), []);
  s = run(s, { type: "cowinnerStaged" });
  assert.deepEqual(s.night.pending.map((w) => [w.player, w.hand.winning_tile, w.context.discarder]), [["Ben", "5p", "Dan"]]);
  // Dan (North) discarded; the next seat round from North is East, Ann, who has not won.
  assert.deepEqual([s.input.text, s.input.winPick, s.input.context.seat_wind, s.tableWinner], ["", "5p", "east", ""]);
  assert.deepEqual(s.status, { state: "idle", key: "table.staged", params: { player: "Ben", n: 1 } });
  // The next winner's hand must end on the same 5p.
  const other = run(s, { type: "winnerChosen", winner: "Ann", discarder: "Dan" }, { type: "typed", text: "123m456m789m234s99p" });
  assert.deepEqual(winProblems(other).map((m) => [m.pointer, m.key, m.params.shared]), [["/hand/winning_tile", "err.co_winning_tile", "5p"]]);
  // No winner chosen: the problem is at the winner's chooser, and nothing is staged.
  const none = run({ ...initialState(), night: seatedNight() }, { type: "typed", text: "123m456m789m234p55p" }, { type: "cowinnerStaged" });
  assert.deepEqual(none.errors.messages.map((m) => m.pointer), ["/table/winner"]);
  assert.deepEqual(none.night.pending, []);
});

test("a hand kept: the night is the one the server answered, and the calculator is cleared for the next hand", () => {
  let s = { ...initialState(), night: seatedNight() };
  s = run(s, { type: "rulesetChosen", ruleset: "hkma" }, { type: "patternSet", id: "all_chows", value: "2" }, { type: "winnerChosen", winner: "Ben", discarder: "" }, { type: "typed", text: "123m456m789m234p55p" }, { type: "viewChosen", view: "table" });
  const sent = nightWith(s, { result: "draw" }).night;
  assert.equal(sent.hands.length, 1);
  // The server's answer: after a draw the dealer kept the deal, Ann again in the east round.
  const res = { hands: [{ index: 0 }], next: { round_wind: "east", dealer: "Ann", dealer_streak: 1, complete: false } };
  const after = run(s, { type: "answered", view: "table", res, ctx: s.input.context, key: "k", status: { key: "status.tallied", params: { n: 1 } }, night: sent, seq: 3 });
  assert.equal(after.night, sent);
  assert.equal(after.tableAnswer, res);
  assert.equal(after.tableWinner, "", "the next winner is chosen again");
  // A draw leaves the hand box as it was; the rules stay.
  assert.equal(after.input.text, s.input.text);
  assert.equal(after.input.house.patterns.all_chows, 2);
  assert.deepEqual([after.shown.view, after.shown.seq, after.status.state], ["table", 3, "ok"]);
  // After a win the box is cleared, the ruleset, house rules and view kept.
  const win = { ...sent, hands: [{ result: "win", winners: [] }] };
  const cleared = run(s, { type: "answered", view: "table", res, ctx: {}, key: "k", status: { key: "status.tallied" }, night: win, seq: 4 });
  assert.deepEqual([cleared.input.text, cleared.input.ruleset, cleared.input.view, cleared.input.house.patterns.all_chows], ["", "hkma", "table", 2]);
  // The night full or the players not seated: no hand is sent.
  assert.deepEqual(nightWith(initialState(), { result: "draw" }).problems.map((p) => p.pointer), ["/players/0", "/players/1", "/players/2", "/players/3"]);
});

test("a refusal: the answer on screen goes, unless a hand was being added; the preview belongs to the Table view", () => {
  const shown = { view: "score", res: {}, ctx: {}, key: "k", document: null, seq: 1 };
  const s = { ...initialState(), shown };
  const messages = [{ pointer: "/hand/tiles", key: "err.count" }];
  assert.equal(run(s, { type: "refused", messages, focus: true }).shown, null);
  const kept = run(s, { type: "refused", messages, focus: true, keepShown: true });
  assert.equal(kept.shown, shown);
  assert.deepEqual(kept.status, { state: "error", key: "status.problems", params: { n: 1 } });
  assert.deepEqual(kept.errors, { messages, focus: true });
  // Waiting for more tiles: the problems go; the answer on screen keeps the status.
  assert.equal(run(kept, { type: "waiting" }).errors, null);
  assert.deepEqual(run({ ...initialState(), errors: kept.errors }, { type: "waiting" }).status.key, "status.idle");
  // Leaving the Table view drops the next hand's preview.
  const table = { ...initialState(), input: { ...initialState().input, view: "table" }, preview: { res: {}, ctx: {}, key: "p", seq: 2 } };
  assert.equal(run(table, { type: "viewChosen", view: "score" }).preview, null);
  assert.equal(previewReady(table), false, "no seated night: nothing to preview");
});

test("reset: everything entered goes, the night and the language stay", () => {
  const s = run({ ...initialState(), lang: "zh", night: seatedNight() }, { type: "typed", text: "123m" }, { type: "targetChosen", target: "chow" }, { type: "problems", messages: [{ pointer: "/hand/tiles", key: "err.x" }] });
  const r = run(s, { type: "reset" });
  assert.deepEqual([r.input, r.target, r.errors, r.status.key, r.lang, r.night], [initialState().input, "hand", null, "status.idle", "zh", s.night]);
  assert.equal(run(s, { type: "example" }).input.text, "123456m78p23455s9p");
});
