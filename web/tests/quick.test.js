// A hand by taps and the night's rules: the store's transitions and the
// ledger hands they make, each value worked out by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialState, reduce, quickEntry, quickCandidates, padRange, houseChanges, nightWith, rulesInForce } from "../js/state.js";
import { emptyNight, inForce, nightRules, ledgerRequest, loadNight, undo, faanRange, tableRuleValue, startedNight } from "../js/ledger.js";
import { ruleText, resultText } from "../js/views/table.js";
import { makeT } from "../js/i18n.js";

const PLAYERS = ["Ann", "Ben", "Cat", "Dan"];
const run = (s, ...actions) => actions.reduce(reduce, s);
// GET /v1/rulesets/hkma, cut to what the pad reads: minimum 3, limit 10 (rulesets/hkma.toml).
const HKMA = { id: "hkma", name: "HKMA", min_faan: 3, limit: 10, patterns: [{ id: "dragon_pung", faan: 1 }, { id: "mixed_one_suit", faan: 3 }] };
const seated = () => {
  const s = initialState({ night: { ...emptyNight(), players: PLAYERS.slice() } });
  return { ...s, input: { ...s.input, ruleset: "hkma" }, server: { ...s.server, details: { hkma: HKMA } } };
};

test("a win in three taps: who won, how (on whose discard), the faan", () => {
  let s = run(seated(), { type: "quickStarted" });
  assert.equal(s.quick.step, "winner");
  assert.deepEqual(quickCandidates(s), PLAYERS, "the four names, nobody won yet");
  s = run(s, { type: "quickPlayer", player: "Ben" });
  assert.equal(s.quick.step, "how");
  // The winner cannot be the discarder: that tap changes nothing.
  assert.equal(run(s, { type: "quickHow", discarder: "Ben" }), s);
  s = run(s, { type: "quickHow", discarder: "Cat" });
  assert.equal(s.quick.step, "faan");
  // The pad: hkma's minimum 3 to its limit 10.
  assert.deepEqual(padRange(s), { min: 3, limit: 10 });
  assert.equal(quickEntry(s), null, "nothing to send before the faan");
  s = run(s, { type: "quickFaan", faan: 5 });
  assert.deepEqual(quickEntry(s), {
    result: "win",
    winners: [{ player: "Ben", declared: { faan: 5 }, context: { win_by: "discard", discarder: "Cat" } }]
  });
});

test("a self-draw and a limit hand: no discarder, declared limit", () => {
  const s = run(seated(), { type: "quickStarted" }, { type: "quickPlayer", player: "Ann" }, { type: "quickHow", discarder: "" }, { type: "quickFaan", limit: true });
  assert.deepEqual(quickEntry(s), { result: "win", winners: [{ player: "Ann", declared: { limit: true }, context: { win_by: "self_draw" } }] });
});

test("a second winner on the same discard is one more tap: in turn order after the discarder", () => {
  // Cat discards; Ann and Dan both win. In turn order after Cat (West): Dan (North), then Ann (East).
  let s = run(seated(), { type: "quickStarted" }, { type: "quickPlayer", player: "Ann" }, { type: "quickHow", discarder: "Cat" });
  assert.deepEqual(quickCandidates(s), ["Ben", "Dan"], "the others but the winner and the discarder");
  s = run(s, { type: "quickAlso", player: "Dan" }, { type: "quickFaan", faan: 5 });
  assert.equal(s.quick.step, "faan", "Dan's faan next");
  assert.equal(s.quick.winner, "Dan");
  s = run(s, { type: "quickFaan", faan: 3 });
  assert.deepEqual(quickEntry(s).winners.map((w) => [w.player, w.declared.faan, w.context.discarder]), [["Dan", 3, "Cat"], ["Ann", 5, "Cat"]]);
  // A self-draw has no second winner.
  const self = run(seated(), { type: "quickStarted" }, { type: "quickPlayer", player: "Ann" }, { type: "quickHow", discarder: "" });
  assert.equal(run(self, { type: "quickAlso", player: "Dan" }), self);
});

test("back steps undo one tap each; a refusal goes back to the last faan", () => {
  let s = run(seated(), { type: "quickStarted" }, { type: "quickPlayer", player: "Ann" }, { type: "quickHow", discarder: "Cat" }, { type: "quickAlso", player: "Dan" }, { type: "quickFaan", faan: 5 });
  const back = run(s, { type: "quickBack" });
  assert.deepEqual([back.quick.winner, back.quick.also, back.quick.done], ["Ann", ["Dan"], []], "back to Ann's faan, Dan still to come");
  assert.equal(run(back, { type: "quickBack" }).quick.step, "how");
  s = run(s, { type: "quickFaan", faan: 3 }, { type: "quickRefused" });
  assert.deepEqual([s.quick.step, s.quick.winner, s.quick.done.length], ["faan", "Dan", 1]);
  assert.equal(run(seated(), { type: "quickStarted" }, { type: "quickBack" }).quick, null);
});

test("ticked patterns: a repeatable pattern counts up to its most, then off", () => {
  let s = run(seated(), { type: "quickStarted" }, { type: "quickPlayer", player: "Ann" }, { type: "quickHow", discarder: "" }, { type: "quickPatterns" });
  s = run(s, { type: "quickTicked", id: "mixed_one_suit", max: 1 }, { type: "quickTicked", id: "dragon_pung", max: 3 }, { type: "quickTicked", id: "dragon_pung", max: 3 });
  assert.deepEqual(s.quick.ticked, ["mixed_one_suit", "dragon_pung", "dragon_pung"]);
  assert.deepEqual(run(s, { type: "quickTicked", id: "mixed_one_suit", max: 1 }).quick.ticked, ["dragon_pung", "dragon_pung"]);
  s = run(s, { type: "quickFaan", patterns: s.quick.ticked });
  assert.deepEqual(quickEntry(s).winners[0].declared, { patterns: ["mixed_one_suit", "dragon_pung", "dragon_pung"] });
});

test("a false win: who, then confirm", () => {
  const s = run(seated(), { type: "falseWinStarted" }, { type: "quickPlayer", player: "Dan" });
  assert.deepEqual([s.quick.step, s.quick.offender], ["confirm", "Dan"]);
  assert.equal(run(s, { type: "quickBack" }).quick.step, "who");
  // Nobody seated: nothing starts.
  assert.equal(run(initialState(), { type: "falseWinStarted" }).quick, null);
});

test("the night's rules are fixed by its first hand; a change is a hand of its own", () => {
  let s = seated();
  s = { ...s, input: { ...s.input, house: { points: "full_spicy" } }, night: { ...s.night, rules: { stake: 0.5 } } };
  const first = nightWith(s, { result: "draw" }).night;
  assert.equal(first.ruleset, "hkma");
  assert.deepEqual(first.house, { points: "full_spicy", stake: 0.5 });
  // The page's ruleset and house rules changed later: the night's request does not follow.
  const later = { ...s.input, ruleset: "wisteria-court", house: {} };
  assert.deepEqual(ledgerRequest(first, later), { ruleset: "hkma", house_rules: { points: "full_spicy", stake: 0.5 }, players: PLAYERS, hands: [{ result: "draw" }] });
  // A change of rules: from the next hand on (the hands before it as they were sent).
  const night = { ...first, hands: first.hands.concat([{ result: "rules", house_rules: { stake: 1, points: null } }]) };
  // What is in force is the server's word (it merges the change): the row's `in_force`.
  assert.equal(inForce(night, null), null, "a change of rules not answered yet: unknown");
  const answer = { hands: [{ index: 0, result: "draw" }, { index: 1, result: "rules", in_force: { stake: 1 } }] };
  assert.deepEqual(inForce(night, answer), { stake: 1 }, "points: null back to the ruleset's own");
  assert.deepEqual(nightRules(night, answer), { stake: 1 });
  assert.deepEqual(ledgerRequest(night, later).hands[0], { result: "draw" });
  // The House rules panel's rules against those in force: what a change of rules would send.
  const started = { ...s, night, tableAnswer: answer, input: { ...s.input, house: { min_faan: 5 } } };
  assert.deepEqual(houseChanges(started), { min_faan: 5 });
  assert.deepEqual(rulesInForce(started), { stake: 1 });
  // A change to the minimum moves the faan pad.
  assert.deepEqual(faanRange(HKMA, { min_faan: 5 }), { min: 5, limit: 10 });
  // Back to no hands: the night is not started, its rules free again.
  assert.equal(undo(undo(night)).ruleset, undefined);
  assert.equal(startedNight(first, later), first, "a started night keeps its rules");
});

test("a table rule as its control reads: the value kept, or an error at the control", () => {
  assert.deepEqual(tableRuleValue("stake", "0.50"), { value: 0.5 });
  assert.equal(tableRuleValue("stake", "abc").error.key, "table.err_stake_number");
  assert.deepEqual(tableRuleValue("dealer_keeps_on_win", "false"), { value: false });
  assert.deepEqual(tableRuleValue("multiple_winners", ""), { value: undefined });
});

test("the stored night keeps its rules and its changes of rules", () => {
  const mem = new Map();
  const storage = { getItem: (k) => mem.get(k) || null, setItem: (k, v) => mem.set(k, v) };
  const night = { ...emptyNight(), players: PLAYERS, ruleset: "hkma", house: { stake: 0.5 }, hands: [{ result: "draw" }, { result: "rules", house_rules: { stake: 1 } }, { result: "win", winners: [{ player: "Ann", declared: { faan: 3 }, context: { win_by: "self_draw" } }] }] };
  storage.setItem("faan.night", JSON.stringify(night));
  const back = loadNight(storage);
  assert.deepEqual([back.ruleset, back.house, back.hands.length], ["hkma", { stake: 0.5 }, 3]);
});

test("undo keeps the hand for redo; a new hand clears it", () => {
  const night = { ...emptyNight(), players: PLAYERS, ruleset: "hkma", house: {}, hands: [{ result: "draw" }, { result: "false_win", offender: "Dan" }] };
  let s = run({ ...seated(), night }, { type: "handUndone" });
  assert.deepEqual(s.undone, [{ result: "false_win", offender: "Dan" }]);
  const redone = run(s, { type: "answered", view: "table", res: { hands: [] }, ctx: {}, key: "", status: { key: "status.tallied" }, night, redo: true });
  assert.deepEqual(redone.undone, []);
  assert.equal(redone.quick, null);
});

test("a change of rules in words, in both languages", () => {
  const en = makeT("en"), zh = makeT("zh");
  assert.equal(ruleText("stake", 0.5, en), "$0.50 a point");
  assert.equal(resultText({ result: "rules", house_rules: { stake: 1, points: "full_spicy" } }, en), "Rules from the next hand: $1.00 a point · Points curve: full spicy (doubling every faan)");
  assert.equal(ruleText("points", null, zh), zh("house.points") + "：用返規則組原本的");
  assert.doesNotMatch(resultText({ result: "rules", house_rules: { min_faan: 5, dealer_keeps_on_win: false } }, zh), /[a-z]{3,}/);
});

test("an import's problems belong to the import: the answer on screen and the status line stay", () => {
  const shown = { view: "score", res: { total_faan: 4 }, ctx: {}, key: "k", document: null, seq: 1 };
  const s = { ...initialState(), shown, status: { state: "ok", key: "status.scored", params: { name: "HKMA" } } };
  const t = reduce(s, { type: "importRefused", messages: [{ pointer: "/ruleset_document", key: "house.import_not_json" }] });
  assert.equal(t.shown, shown);
  assert.deepEqual(t.status, s.status, "not \"1 problem\"");
  assert.equal(t.errors.scope, "import");
  assert.equal(t.doc.key, "house.import_refused");
});
