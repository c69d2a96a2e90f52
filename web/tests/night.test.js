// A night as the table plays it: the settle-up the server says, hands
// counted as played, a second game with new seats, the rules in force the
// ledger answered, and a scorer following the table live (a change from
// the stream taken, or kept apart while hands of its own wait; a conflict
// that names the hands equal to the other scorer's). Values worked by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialState, reduce, tableDeal } from "../js/state.js";
import { emptyNight, currentDeal, seatingOf, playedCount, gameOf, newGameEntry, seatingProblems, inForce, loadNight } from "../js/ledger.js";
import { conflictOf, guessNext, emptyViewer } from "../js/share.js";
import { settleUp, entryText, resultText, dealLine } from "../js/views/table.js";
import { makeT } from "../js/i18n.js";

const PLAYERS = ["Ann", "Ben", "Cat", "Dan"];
const ID = "AAAAAAAAAAAAAAAAAAAAAA";
const KEY = "BBBBBBBBBBBBBBBBBBBBBB";
const EN = makeT("en");
const ZH = makeT("zh");
const DRAW = { result: "draw" };
const win = (player, faan, discarder) => ({ result: "win", winners: [{ player, declared: { faan }, context: discarder ? { win_by: "discard", discarder } : { win_by: "self_draw" } }] });

function table(version, hands) {
  return {
    id: ID, title: null, version,
    request: { ruleset: "hkma", players: PLAYERS, hands },
    ledger: { hands: hands.map((h, i) => ({ index: i, number: i + 1, game: 1, result: h.result, deltas: {}, balances: {} })), next: { round_wind: "east", dealer: "Ann", dealer_streak: 0, complete: false } }
  };
}

function shared(version, hands) {
  const s = initialState({ night: { ...emptyNight(), players: PLAYERS.slice() } });
  return reduce(s, { type: "sharedJoined", id: ID, key: KEY, table: table(version, hands), seq: 1 });
}

test("the settle-up: with a stake, the server's money transfers alone; without, the points", () => {
  // HKMA at $1, then $2 from hand 5 (tests/browser/games.rs works it):
  // points Ann -48, Ben 48, Cat -16, Dan 16; money Ann 0, Ben 32, Cat -32, Dan 0.
  const res = {
    transfers: [{ from: "Ann", to: "Ben", amount: 48 }, { from: "Cat", to: "Dan", amount: 16 }],
    money: { stake: 2, transfers: [{ from: "Cat", to: "Ben", amount: 32 }] }
  };
  const shown = settleUp(res);
  assert.deepEqual(shown, [{ from: "Cat", to: "Ben", amount: 32, money: "$32.00" }], "never a points transfer paired with money");
  assert.equal(EN("table.pays", { from: "Cat", to: "Ben", amount: shown[0].money }), "Cat pays Ben $32.00");
  assert.deepEqual(settleUp({ transfers: res.transfers }), [{ from: "Ann", to: "Ben", amount: 48, money: "" }, { from: "Cat", to: "Dan", amount: 16, money: "" }]);
  assert.deepEqual(settleUp({}), []);
});

test("hands count as played: a change of rules and a new game are not hands", () => {
  const hands = [win("Ann", 3, "Ben"), { result: "rules", house_rules: { stake: 2 } }, DRAW, { result: "new_game" }, DRAW];
  assert.equal(playedCount(hands), 3);
  assert.equal(gameOf(hands), 2);
  const night = { ...emptyNight(), players: PLAYERS, hands: hands.slice(0, 3) };
  const answer = { hands: [{}, {}, {}], next: { round_wind: "east", dealer: "Cat", dealer_streak: 0, complete: false } };
  const deal = currentDeal(night, answer);
  assert.equal(deal.hand, 3, "two played, so hand 3 comes");
  assert.equal(dealLine(deal, EN), "Hand 3: East round, Cat deals.");
  assert.equal(dealLine(deal, ZH), "第 3 局：東圈，Cat 做莊。");
});

test("a second game with new seats: the seating, the first dealer, the deal line", () => {
  const draws = Array.from({ length: 16 }, () => DRAW);
  const ng = newGameEntry(["Ben", "Ann", "Dan", "Cat"], "Dan");
  assert.deepEqual(ng, { result: "new_game", players: ["Ben", "Ann", "Dan", "Cat"], dealer: "Dan" });
  assert.deepEqual(newGameEntry(null, ""), { result: "new_game" }, "seats and dealer left to the ledger");
  const night = { ...emptyNight(), players: PLAYERS, hands: draws.concat([ng]) };
  // Dan deals first: Dan east, then round the new seating: Cat, Ben, Ann.
  assert.deepEqual(seatingOf(night), ["Dan", "Cat", "Ben", "Ann"]);
  const answer = { hands: night.hands.map(() => ({})), next: { round_wind: "east", dealer: "Dan", dealer_streak: 0, complete: false } };
  const deal = currentDeal(night, answer);
  assert.deepEqual(deal.seats, { east: "Dan", south: "Cat", west: "Ben", north: "Ann" });
  assert.equal(deal.hand, 17);
  assert.equal(deal.game, 2);
  assert.equal(dealLine(deal, EN), "Game 2 · Hand 17: East round, Dan deals.");
  assert.equal(dealLine(deal, ZH), "第 2 場 · 第 17 局：東圈，Dan 做莊。");
  // The same seats without a dealer: the east seat (Ben) deals.
  assert.deepEqual(seatingOf({ ...night, hands: draws.concat([newGameEntry(["Ben", "Ann", "Dan", "Cat"], "")]) }), ["Ben", "Ann", "Dan", "Cat"]);
  // Offline, the next game's deal is guessed the same way.
  assert.deepEqual(guessNext({ round_wind: "north", dealer: "Dan" }, ng, PLAYERS, {}), { round_wind: "east", dealer: "Dan", dealer_streak: 0, complete: false });
  assert.deepEqual(seatingProblems(night, ["Ben", "Ben", "Dan", "Cat"]).map((p) => p.pointer), ["/table/new_game/players/1"]);
  assert.deepEqual(seatingProblems(night, ["Ben", "Ann", "Dan", "Cat"]), []);
  assert.equal(resultText({ result: "new_game", seats: { Dan: "east", Cat: "south", Ben: "west", Ann: "north" }, dealer: "Dan" }, EN), "New game: East Dan, South Cat, West Ben, North Ann; Dan deals first");
});

test("a stored night keeps its new game", () => {
  const mem = new Map([["faan.night", JSON.stringify({ players: PLAYERS, ruleset: "hkma", house: {}, hands: [DRAW, { result: "new_game", players: ["Ben", "Ann", "Dan", "Cat"], dealer: "Dan", junk: 1 }] })]]);
  const back = loadNight({ getItem: (k) => mem.get(k) || null });
  assert.deepEqual(back.hands[1], { result: "new_game", players: ["Ben", "Ann", "Dan", "Cat"], dealer: "Dan" });
});

test("the rules in force are the ledger's: the last change's in_force, never merged here", () => {
  const night = { ...emptyNight(), players: PLAYERS, ruleset: "hkma", house: { stake: 1, patterns: { all_simples: { faan: 1 } } }, hands: [DRAW, { result: "rules", house_rules: { stake: 2, patterns: { no_flowers: null } } }] };
  // The server merged the maps entry by entry: both patterns are there.
  const answer = { hands: [{ result: "draw" }, { result: "rules", in_force: { stake: 2, patterns: { all_simples: { faan: 1 }, no_flowers: null } } }] };
  assert.deepEqual(inForce(night, answer), { stake: 2, patterns: { all_simples: { faan: 1 }, no_flowers: null } });
  assert.deepEqual(inForce({ ...night, hands: [DRAW] }, { hands: [{ result: "draw" }] }), night.house, "no change: the night's own");
});

test("an unsent hand in words, as entered", () => {
  assert.equal(entryText(win("Cat", 3, "Dan"), EN), "Cat wins, 3 faan");
  assert.equal(entryText(win("Cat", 3, "Dan"), ZH), "Cat 食糊，3 番");
  assert.equal(entryText({ result: "win", winners: [{ player: "Ann", declared: { limit: true }, context: {} }] }, EN), "Ann wins, the limit");
  assert.equal(entryText({ result: "win", winners: [{ player: "Ann", declared: { patterns: ["a", "b"] }, context: {} }] }, EN), "Ann wins, 2 patterns ticked");
  assert.equal(entryText(DRAW, EN), EN("table.result_draw"));
});

test("live: a change from the stream is the night when nothing waits here; kept apart while a hand waits", () => {
  let s = shared(3, [DRAW, DRAW]);
  const row = { index: 2, number: 3, game: 1, result: "win", deltas: {}, balances: {} };
  const change = { version: 4, updated_at: "t4", request: win("Ben", 4), hand: row, ledger: { next: { round_wind: "east", dealer: "Ann", dealer_streak: 0, complete: false } } };
  const live = reduce(s, { type: "sharedStream", kind: "hand", change, seq: 2 });
  assert.equal(live.shared.version, 4);
  assert.deepEqual(live.night.hands, [DRAW, DRAW, win("Ben", 4)]);
  assert.equal(live.tableAnswer.hands.length, 3);
  assert.equal(tableDeal(live).hand, 4);
  assert.equal(reduce(live, { type: "sharedStream", kind: "table", table: table(3, [DRAW, DRAW]) }), live, "an older table is ignored");
  // A hand of mine waits (offline): the server's change is remembered, my version stays, nothing is merged.
  s = reduce(reduce(s, { type: "sharedOffline" }), { type: "sharedQueued", entry: win("Cat", 3, "Dan"), night: { ...s.night, hands: [DRAW, DRAW, win("Cat", 3, "Dan")] } });
  const kept = reduce(s, { type: "sharedStream", kind: "hand", change, seq: 3 });
  assert.equal(kept.shared.version, 3);
  assert.equal(kept.shared.table.version, 4);
  assert.deepEqual(kept.night.hands, [DRAW, DRAW, win("Cat", 3, "Dan")]);
});

test("a hand sent with return=minimal: the change applied to the table held", () => {
  const s = shared(3, [DRAW, DRAW]);
  const row = { index: 2, number: 3, game: 1, result: "draw", deltas: {}, balances: {} };
  const night = { ...s.night, hands: [DRAW, DRAW, DRAW] };
  const after = reduce(s, { type: "sharedSent", answer: { version: 4, updated_at: "t", request: DRAW, hand: row, ledger: { next: null } }, night, seq: 2 });
  assert.equal(after.shared.version, 4);
  assert.equal(after.shared.acked, 3);
  assert.equal(after.shared.table.ledger.hands.length, 3);
});

test("a conflict names my hands equal to theirs, and the first choice drops them: never counted twice", () => {
  // Both at [DRAW] (version 2). They added Cat's 3 on Dan's discard and a draw; mine, offline: the same win of Cat's, then Ann's self-draw.
  let s = shared(2, [DRAW]);
  s = reduce(s, { type: "sharedOffline" });
  for (const e of [win("Cat", 3, "Dan"), win("Ann", 3)]) s = reduce(s, { type: "sharedQueued", entry: e, night: { ...s.night, hands: s.night.hands.concat([e]) } });
  const theirs = table(4, [DRAW, win("Cat", 3, "Dan"), DRAW]);
  const c = conflictOf(s.night, s.shared, theirs);
  assert.equal(c.from, 1);
  assert.deepEqual(c.same, [0, -1], "mine 1 is their first; mine 2 is new");
  s = reduce(s, { type: "sharedConflict", table: theirs, seq: 3 });
  assert.equal(s.status.state, "error");
  const fresh = reduce(s, { type: "conflictResolved", keep: "new", seq: 4 });
  assert.deepEqual(fresh.night.hands, [DRAW, win("Cat", 3, "Dan"), DRAW, win("Ann", 3)]);
  assert.deepEqual(fresh.shared.queue, [win("Ann", 3)]);
  assert.equal(fresh.shared.conflict, null);
  assert.notEqual(fresh.status.state, "error", "the red line goes");
  const all = reduce(s, { type: "conflictResolved", keep: "all", seq: 4 });
  assert.equal(all.shared.queue.length, 2, "both of mine only when asked");
  // A 412 with nothing of mine left to send: the server's night, no box.
  const none = reduce(shared(2, [DRAW]), { type: "sharedConflict", table: theirs, seq: 5 });
  assert.equal(none.shared.conflict, null);
  assert.equal(none.shared.version, 4);
});

test("the viewer marks the hand that came in live", () => {
  let s = initialState({ viewer: emptyViewer({ kind: "table", id: ID }) });
  s = reduce(s, { type: "viewerTable", table: table(2, [DRAW]) });
  assert.equal(s.viewer.fresh, null, "the first table marks nothing");
  const row = { index: 1, number: 2, result: "draw", deltas: {}, balances: {} };
  s = reduce(s, { type: "viewerChange", kind: "hand", change: { version: 3, request: DRAW, hand: row, ledger: {} } });
  assert.equal(s.viewer.fresh, 1);
});
