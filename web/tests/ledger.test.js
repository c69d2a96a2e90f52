// The table's night: seating, the ledger request built from the page, undo, storage.
import { test } from "node:test";
import assert from "node:assert/strict";
import { emptyInput, derive } from "../js/input.js";
import { emptyNight, playerProblems, seatsFor, currentDeal, winEntry, drawEntry, falseWinEntry, addHand, undo, ledgerRequest, ledgerMessages, loadNight, saveNight, stageWinner, unstage, parseStake, parseMultiplier, formatMoney, formatStake, withRule, cleanRules, contextFor } from "../js/ledger.js";

const PLAYERS = ["Ann", "Ben", "Cat", "Dan"];
const night = () => ({ ...emptyNight(), players: PLAYERS.slice() });

class Store {
  constructor(v) { this.m = new Map(v ? [["faan.night", v]] : []); }
  getItem(k) { return this.m.has(k) ? this.m.get(k) : null; }
  setItem(k, v) { this.m.set(k, String(v)); }
}

test("players: each named, distinct, short; the pointer names the field", () => {
  assert.deepEqual(playerProblems(PLAYERS), [], "four distinct names sit down");
  assert.deepEqual(playerProblems(["Ann", " ", "Cat", "Ann "]).map((p) => [p.pointer, p.key]), [
    ["/players/1", "table.err_name_missing"],
    ["/players/3", "table.err_name_repeated"]
  ], "a blank name and 'Ann ' repeating 'Ann' (trimmed)");
  assert.equal(playerProblems(["A".repeat(25), "B", "C", "D"])[0].key, "table.err_name_long", "25 characters is too long");
});

test("seating: the dealer sits East, then round the table in the players' order", () => {
  assert.deepEqual(seatsFor(PLAYERS, "Ann"), { east: "Ann", south: "Ben", west: "Cat", north: "Dan" }, "Ann deals");
  assert.deepEqual(seatsFor(PLAYERS, "Cat"), { east: "Cat", south: "Dan", west: "Ann", north: "Ben" }, "Cat deals: wraps");
});

test("the coming deal: east round with the first player before any hand, else the server's next", () => {
  const n = night();
  const first = currentDeal(n, null);
  assert.equal(first.dealer, "Ann", "first hand: players[0] deals");
  assert.equal(first.round_wind, "east", "first hand: east round");
  assert.equal(first.hand, 1, "first hand is hand 1");
  const two = addHand(n, drawEntry());
  assert.equal(currentDeal(two, null), null, "after a hand, unknown until the server answers");
  const answer = { hands: [{ index: 0 }], next: { round_wind: "east", dealer: "Ben", dealer_streak: 0, complete: false } };
  const d = currentDeal(two, answer);
  assert.deepEqual([d.hand, d.dealer, d.seats.east, d.seats.north], [2, "Ben", "Ben", "Ann"], "Ben deals hand 2, Ann sits North");
  assert.equal(currentDeal(addHand(two, drawEntry()), answer), null, "an answer to fewer hands says nothing of the coming deal");
});

test("a win on the calculator becomes a ledger hand naming players, seat and round left to the ledger", () => {
  // Cat deals (seats: Cat E, Dan S, Ann W, Ben N); the calculator's winner sits West
  // and South discarded: Ann wins on Dan's discard, Ben liable (North).
  const deal = { round_wind: "south", dealer: "Cat", hand: 7, seats: seatsFor(PLAYERS, "Cat") };
  const s = { ...emptyInput(), text: "[777z] 123m456p 23455s", context: { ...emptyInput().context, seat_wind: "west", round_wind: "south", win_by: "discard", discarder: "south", liable: "north", last_tile: true } };
  const e = winEntry(s, derive(s), deal);
  assert.deepEqual(e, {
    result: "win",
    winners: [{
      player: "Ann",
      hand: { tiles: "123m456p23455s", melds: [{ kind: "pung", tiles: "777z" }], winning_tile: "5s" },
      context: { win_by: "discard", discarder: "Dan", last_tile: true, liable: "Ben" }
    }]
  }, "Ann's win on Dan's discard");
  const self = { ...s, context: { ...s.context, win_by: "self_draw", discarder: "", liable: "", last_tile: false } };
  assert.deepEqual(winEntry(self, derive(self), deal).winners[0].context, { win_by: "self_draw" }, "a self-draw names nobody else");
});

test("choosing the winner and discarder by name sets the calculator's seats", () => {
  const deal = { round_wind: "west", dealer: "Ben", seats: seatsFor(PLAYERS, "Ben") };
  const c0 = emptyInput().context;
  const c = contextFor(c0, deal, "Dan", "Ann");
  assert.deepEqual([c.seat_wind, c.round_wind, c.win_by, c.discarder], ["west", "west", "discard", "north"], "Dan (West) on Ann's (North) discard");
  const d = contextFor({ ...c, win_by: "robbing_kong" }, deal, "Dan", "Cat");
  assert.deepEqual([d.win_by, d.discarder], ["robbing_kong", "south"], "a robbed kong stays one");
  const e = contextFor(d, deal, "Ben", "");
  assert.deepEqual([e.seat_wind, e.win_by, e.discarder], ["east", "self_draw", ""], "no discarder: Ben (East) self-draws");
});

test("the request: players, hands in order, the page's ruleset and house rules; undo drops the last", () => {
  let n = night();
  n = addHand(n, drawEntry());
  n = addHand(n, falseWinEntry("Dan"));
  const s = { ...emptyInput(), ruleset: "hkma", house: { min_faan: 3 } };
  assert.deepEqual(ledgerRequest(n, s), {
    ruleset: "hkma", house_rules: { min_faan: 3 }, players: PLAYERS,
    hands: [{ result: "draw" }, { result: "false_win", offender: "Dan" }]
  }, "two hands under hkma, minimum 3");
  assert.equal("house_rules" in ledgerRequest(n, emptyInput()), false, "no house rules: none sent");
  const u = undo(n);
  assert.deepEqual(u.hands, [{ result: "draw" }], "undo drops the false win");
  assert.equal(n.hands.length, 2, "undo leaves the night given unchanged");
  assert.deepEqual(undo(undo(u)).hands, [], "undo of nothing is nothing");
});

test("a refusal of the hand being added points at the calculator; one of an earlier hand names it", () => {
  const m = ledgerMessages([
    { pointer: "/hands/4/winners/0/hand/tiles", key: "err.not_winning" },
    { pointer: "/hands/4/winners/0/context/discarder", key: "err.discarder_required" },
    { pointer: "/hands/1/winners/0/hand/tiles", key: "err.other", params: { detail: "x" } },
    { pointer: "/players/2", key: "err.other", params: { detail: "y" } }
  ], 4);
  assert.deepEqual(m.map((x) => x.pointer), ["/hand/tiles", "/context/discarder", "/table", "/players/2"], "pointers mapped");
  assert.deepEqual(m[2].params, { n: 2, detail: { key: "err.other", params: { detail: "x" } } }, "hand index 1 is the night's hand 2");
});

test("storage: a night survives a reload; garbage gives an empty night", () => {
  const st = new Store();
  const n = addHand(night(), drawEntry());
  saveNight(st, n);
  assert.deepEqual(loadNight(st), n, "saved and loaded");
  assert.deepEqual(loadNight(new Store("{not json")), emptyNight(), "unreadable JSON");
  assert.deepEqual(loadNight(new Store(JSON.stringify({ players: ["a"], hands: [{ result: "bogus" }, { result: "draw" }] }))),
    { players: ["", "", "", ""], hands: [{ result: "draw" }], pending: [], rules: {} }, "three players dropped, an unknown hand dropped");
  assert.deepEqual(loadNight(null), emptyNight(), "no storage at all");
});

test("the deal line and a hand's result in both languages", async () => {
  const { makeT } = await import("../js/i18n.js");
  const { dealLine, resultText } = await import("../js/views/table.js");
  const en = makeT("en"), zh = makeT("zh");
  const deal = { hand: 5, round_wind: "south", dealer: "Cat", dealer_streak: 2, complete: false };
  assert.equal(dealLine(deal, en), "Hand 5: South round, Cat deals. (kept the deal 2 times)", "en, a kept deal");
  assert.equal(dealLine({ ...deal, dealer_streak: 1 }, en), "Hand 5: South round, Cat deals. (kept the deal once)", "en, kept once");
  assert.equal(dealLine(deal, zh), "第 5 局：南圈，Cat 做莊。（連莊 2 次）", "zh, a kept deal");
  assert.equal(dealLine({ ...deal, dealer_streak: 0 }, en), "Hand 5: South round, Cat deals.", "no streak, no note");
  assert.equal(dealLine({ ...deal, complete: true }, en), "The match is over: the north round has been played.", "complete");
  const two = { result: "win", winners: [{ player: "Ann", paid: true, total_faan: 3 }, { player: "Ben", paid: false, total_faan: 5 }] };
  assert.equal(resultText(two, en), "Ann wins, 3 faan; Ben also won, 5 faan (not paid)", "two winners under head_bump");
  // Chinese joins the clauses with a full-width semicolon.
  assert.equal(resultText(two, zh), "Ann 食糊，3 番；Ben 亦食糊，5 番（截糊，不計）", "zh, two winners");
  assert.equal(resultText({ result: "false_win", offender: "Dan" }, zh), "Dan 詐糊", "zh false win");
});

// Ann deals hand 1 (Ann E, Ben S, Cat W, Dan N). Dan (North) discards 5s;
// Ben (South) and Cat (West) both win on it.
const deal1 = () => ({ round_wind: "east", dealer: "Ann", hand: 1, seats: seatsFor(PLAYERS, "Ann") });
const onDan = (seat, text) => ({ ...emptyInput(), text, context: { ...emptyInput().context, seat_wind: seat, win_by: "discard", discarder: "north" } });

test("a double win: the first winner staged, the second added: one ledger hand with both winners", () => {
  const ben = onDan("south", "123456m789p23455s");
  const staged = stageWinner(night(), ben, derive(ben), deal1());
  assert.equal(staged.problem, undefined, "Ben's win on Dan's discard is staged");
  assert.deepEqual(staged.night.pending.map((w) => [w.player, w.context.discarder]), [["Ben", "Dan"]], "Ben pending, on Dan's discard");
  assert.deepEqual(staged.night.hands, [], "nothing added to the night yet");
  const cat = onDan("west", "111222m333p44s55s5s");
  const entry = winEntry(cat, derive(cat), deal1(), staged.night);
  assert.deepEqual(entry.winners.map((w) => [w.player, w.hand.winning_tile, w.context]), [
    ["Ben", "5s", { win_by: "discard", discarder: "Dan" }],
    ["Cat", "5s", { win_by: "discard", discarder: "Dan" }]
  ], "both winners, in the order added, each on Dan's 5s");
  const after = addHand(staged.night, entry);
  assert.deepEqual(after.pending, [], "nothing pending once the hand is added");
  const body = ledgerRequest(after, { ...emptyInput(), ruleset: "hkma" });
  assert.equal(body.hands[0].winners.length, 2, "the request's hand has two winners");
  assert.deepEqual(unstage(staged.night, 0).pending, [], "a staged winner can be removed");
});

test("staging a winner: a self-draw, a winner twice and a fourth winner are refused at their controls", () => {
  const self = { ...onDan("south", "123456m789p23455s"), context: { ...emptyInput().context, seat_wind: "south", win_by: "self_draw" } };
  assert.deepEqual(stageWinner(night(), self, derive(self), deal1()).problem, { pointer: "/context/win_by", key: "table.err_cowinner_self_draw" }, "a self-draw has one winner");
  const ben = onDan("south", "123456m789p23455s");
  const one = stageWinner(night(), ben, derive(ben), deal1()).night;
  assert.deepEqual(stageWinner(one, ben, derive(ben), deal1()).problem, { pointer: "/table/winner", key: "table.err_cowinner_twice", params: { player: "Ben" } }, "Ben twice");
  const cat = onDan("west", "123456m789p23455s");
  const two = stageWinner(one, cat, derive(cat), deal1()).night;
  const ann = onDan("east", "123456m789p23455s");
  assert.deepEqual(stageWinner(two, ann, derive(ann), deal1()).problem, { pointer: "/table/winner", key: "table.err_cowinner_max", params: { max: 3 } }, "two staged and the calculator's: three winners is the most");
});

test("a refusal of a double win: the calculator's winner at its fields, a staged one at its line", () => {
  const m = ledgerMessages([
    { pointer: "/hands/0/winners/1/context/discarder", key: "err.other", params: { detail: "x" } },
    { pointer: "/hands/0/winners/0/hand/tiles", key: "err.not_winning" }
  ], 0, 1);
  assert.deepEqual(m.map((x) => x.pointer), ["/context/discarder", "/table/pending/0"], "winner 1 is the calculator's; winner 0 is staged");
});

test("stakes: money per point, to the cent, refused at the stake control", () => {
  assert.deepEqual(parseStake(""), {}, "empty: the ruleset's");
  assert.deepEqual(parseStake("0.5"), { value: 0.5 }, "fifty cents");
  assert.deepEqual(parseStake("$1.25"), { value: 1.25 }, "a dollar sign is allowed");
  assert.deepEqual(parseStake(".1"), { value: 0.1 }, "no leading zero");
  assert.equal(parseStake("0").error.key, "table.err_stake_range", "zero is no stake");
  assert.equal(parseStake("1000001").error.key, "table.err_stake_range", "over the server's 1000000");
  assert.equal(parseStake("0.1234567").error.key, "table.err_stake_decimals", "seven decimals");
  assert.equal(parseStake("1,5").error.pointer, "/house_rules/stake", "a comma: the error points at the stake");
  assert.equal(formatStake(0.5), "$0.50", "a stake shown with cents");
  assert.equal(formatStake(0.125), "$0.125", "finer than a cent stays exact");
  assert.equal(formatStake(2), "$2.00", "whole dollars with cents");
  assert.equal(formatMoney(12.5), "+$12.50", "a gain");
  assert.equal(formatMoney(-3.05), "-$3.05", "a loss to the cent");
  assert.equal(formatMoney(0), "$0.00", "nothing");
  assert.deepEqual(parseMultiplier("1.5"), { value: 1.5 }, "one and a half");
  assert.equal(parseMultiplier("1.1").error.pointer, "/house_rules/dealer_multiplier", "not an eighth");
});

test("the table's rules go into the ledger request beside the house rules, and are kept with the night", () => {
  let n = withRule(night(), "stake", 0.5);
  n = withRule(n, "dealer_keeps_on_win", false);
  n = withRule(n, "multiple_winners", "head_bump");
  n = withRule(withRule(n, "liable_discard", "pays_all"), "liable_discard", undefined);
  const body = ledgerRequest(n, { ...emptyInput(), ruleset: "hkma", house: { min_faan: 3 } });
  assert.deepEqual(body.house_rules, { min_faan: 3, stake: 0.5, dealer_keeps_on_win: false, multiple_winners: "head_bump" }, "house rules and table rules together; one set back to the ruleset's");
  const st = new Store();
  saveNight(st, n);
  assert.deepEqual(loadNight(st).rules, { stake: 0.5, dealer_keeps_on_win: false, multiple_winners: "head_bump" }, "kept in local storage");
  assert.deepEqual(cleanRules({ stake: -1, dealer_multiplier: 1.1, multiple_winners: "some", dealer_keeps_on_draw: "yes" }), {}, "stored garbage dropped");
  // Whether winners on one discard pay each other is a table rule too.
  assert.deepEqual(ledgerRequest(withRule(night(), "co_winners_pay", true), { ...emptyInput(), ruleset: "mjtime" }).house_rules, { co_winners_pay: true }, "co_winners_pay sent with the night");
  assert.deepEqual(cleanRules({ co_winners_pay: "no" }), {}, "co_winners_pay must be a boolean");
});
