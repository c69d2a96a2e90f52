// The shared night in the store: hands waiting while offline and sent in
// order, a conflict with another scorer shown and settled only by the
// player's choice, and the links. Values worked out by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialState, reduce, tableDeal } from "../js/state.js";
import { emptyNight } from "../js/ledger.js";
import { linkOf, joinOf, links, guessNext, conflictOf, loadShared, saveShared, nightFromTable, emptyViewer, applyChange } from "../js/share.js";

const PLAYERS = ["Ann", "Ben", "Cat", "Dan"];
const ID = "AAAAAAAAAAAAAAAAAAAAAA";
const KEY = "BBBBBBBBBBBBBBBBBBBBBB";
const run = (s, ...actions) => actions.reduce(reduce, s);
const DRAW = { result: "draw" };
const FALSE_BEN = { result: "false_win", offender: "Ben" };
const WIN_CAT = { result: "win", winners: [{ player: "Cat", declared: { faan: 3 }, context: { win_by: "self_draw" } }] };

// A TABLE as the server answers it: its stored request and a ledger answer
// cut to what the page reads (the rows' index and the coming deal).
function table(version, hands, next) {
  return {
    id: ID, title: null, version,
    request: { ruleset: "hkma", house_rules: { stake: 0.5, min_faan: 3 }, players: PLAYERS, hands },
    ledger: { hands: hands.map((h, i) => ({ index: i, result: h.result, deltas: {}, balances: {} })), next: next || { round_wind: "east", dealer: "Ann", dealer_streak: hands.length, complete: false } }
  };
}

function sharedState() {
  const s = initialState({ night: { ...emptyNight(), players: PLAYERS.slice() } });
  return reduce(s, { type: "sharedCreated", answer: { id: ID, key: KEY, version: 1, table: table(1, []) } });
}

const queued = (s, entry) => reduce(s, { type: "sharedQueued", entry, night: { ...s.night, hands: s.night.hands.concat([entry]), pending: [] } });

test("the links: the view link and the scorer's with its key in the fragment; a path read back", () => {
  assert.deepEqual(links("http://h", { id: ID, key: KEY }), { view: "http://h/t/" + ID, score: "http://h/t/" + ID + "#key=" + KEY });
  assert.deepEqual(linkOf("/t/" + ID, "#key=" + KEY), { kind: "table", id: ID, key: KEY });
  assert.deepEqual(linkOf("/g/" + ID, ""), { kind: "group", id: ID, key: null });
  assert.equal(linkOf("/t/short", ""), null, "an id is 22 base64url characters");
  assert.equal(linkOf("/x/" + ID, ""), null);
  assert.deepEqual(joinOf("#join=" + ID + "&key=" + KEY), { id: ID, key: KEY });
  assert.equal(joinOf("#join=" + ID), null, "no key: nothing to join");
});

test("created: the night is bound to the table at version 1, nothing waiting", () => {
  const s = sharedState();
  assert.equal(s.shared.id, ID);
  assert.equal(s.shared.version, 1);
  assert.equal(s.shared.acked, 0);
  assert.deepEqual(s.shared.queue, []);
  assert.equal(s.status.key, "share.created");
});

test("offline: two hands wait in order, the deal is guessed, then each is sent in turn at the version the last left", () => {
  let s = sharedState();
  s = reduce(s, { type: "sharedOffline" });
  // Hand 1, a draw: Ann deals, and under HKMA's defaults (unknown here: kept) the dealer keeps the deal.
  s = queued(s, DRAW);
  assert.deepEqual(s.shared.queue, [DRAW]);
  assert.equal(s.status.key, "share.offline");
  assert.deepEqual(s.status.params, { n: 1 });
  let deal = tableDeal(s);
  assert.equal(deal.hand, 2);
  assert.equal(deal.dealer, "Ann", "a draw: the dealer keeps the deal");
  assert.equal(deal.dealer_streak, 1);
  // Hand 2: Cat wins, not the dealer: the deal passes to Ben (South), still the east round.
  s = queued(s, WIN_CAT);
  assert.deepEqual(s.shared.queue, [DRAW, WIN_CAT], "in the order entered");
  assert.deepEqual(s.night.hands, [DRAW, WIN_CAT]);
  deal = tableDeal(s);
  assert.equal(deal.hand, 3);
  assert.equal(deal.dealer, "Ben");
  assert.equal(deal.seats.east, "Ben");
  // Back online: the first is taken (version 2), then the second (version 3).
  s = reduce(s, { type: "sharedSent", answer: table(2, [DRAW]), key: "k2", seq: 1 });
  assert.deepEqual(s.shared.queue, [WIN_CAT]);
  assert.equal(s.shared.version, 2);
  assert.equal(s.shared.acked, 1);
  assert.equal(s.shared.offline, false);
  assert.equal(tableDeal(s).dealer, "Ben", "the guess for hand 3 stands while hand 2 waits");
  s = reduce(s, { type: "sharedSent", answer: table(3, [DRAW, WIN_CAT], { round_wind: "east", dealer: "Ben", dealer_streak: 0, complete: false }), key: "k3", seq: 2 });
  assert.deepEqual(s.shared.queue, []);
  assert.equal(s.shared.version, 3);
  assert.equal(s.shared.acked, 2);
  assert.deepEqual(s.shared.guesses, []);
  assert.equal(s.status.key, "share.sent");
  assert.equal(tableDeal(s).dealer, "Ben", "now the server's word");
});

test("a hand sent at once: the night takes it when the server does", () => {
  const s0 = sharedState();
  const night = { ...s0.night, hands: [FALSE_BEN] };
  const s = reduce(s0, { type: "sharedSent", answer: table(2, [FALSE_BEN]), night, key: "k", seq: 3 });
  assert.deepEqual(s.night.hands, [FALSE_BEN]);
  assert.deepEqual(s.shared.queue, []);
  assert.equal(s.shared.version, 2);
});

test("the waiting hands are kept across a reload; what is unreadable is forgotten", () => {
  const mem = new Map();
  const storage = { getItem: (k) => (mem.has(k) ? mem.get(k) : null), setItem: (k, v) => mem.set(k, v), removeItem: (k) => mem.delete(k) };
  let s = queued(reduce(sharedState(), { type: "sharedOffline" }), DRAW);
  s = queued(s, FALSE_BEN);
  saveShared(storage, s.shared);
  const back = loadShared(storage);
  assert.deepEqual(back.queue, [DRAW, FALSE_BEN]);
  assert.equal(back.version, 1);
  assert.equal(back.key, KEY);
  assert.equal(back.guesses.length, 2);
  saveShared(storage, null);
  assert.equal(loadShared(storage), null);
  storage.setItem("faan.shared", "{\"id\": \"x\"}");
  assert.equal(loadShared(storage), null);
});

test("a conflict: the other scorer's hand shown, mine kept waiting; nothing changes until the player chooses", () => {
  // Both at version 2 with [DRAW]. The other adds a false win by Ben (version 3);
  // mine, Cat's win, gets a 412 whose table is theirs.
  let s = sharedState();
  s = reduce(s, { type: "sharedSent", answer: table(2, [DRAW]), night: { ...s.night, hands: [DRAW] }, key: "k", seq: 1 });
  s = queued(s, WIN_CAT);
  const theirs = table(3, [DRAW, FALSE_BEN]);
  s = reduce(s, { type: "sharedConflict", table: theirs });
  const c = s.shared.conflict;
  assert.equal(c.from, 1, "both hold the draw");
  assert.deepEqual(c.theirs.map((h) => [h.index, h.result]), [[1, "false_win"]]);
  assert.deepEqual(c.mine, [WIN_CAT]);
  assert.deepEqual(s.night.hands, [DRAW, WIN_CAT], "nothing dropped yet");
  assert.deepEqual(s.shared.queue, [WIN_CAT]);
  assert.equal(s.status.key, "share.conflict");
  // Mine after theirs: the night is theirs then mine, mine waits to be sent at version 3.
  const kept = reduce(s, { type: "conflictResolved", keep: "new", key: "k", seq: 2 });
  assert.deepEqual(kept.night.hands, [DRAW, FALSE_BEN, WIN_CAT]);
  assert.deepEqual(kept.shared.queue, [WIN_CAT]);
  assert.equal(kept.shared.version, 3);
  assert.equal(kept.shared.acked, 2);
  assert.equal(kept.shared.conflict, null);
  // Theirs only: my hand goes, by the player's choice.
  const dropped = reduce(s, { type: "conflictResolved", keep: false, key: "k", seq: 2 });
  assert.deepEqual(dropped.night.hands, [DRAW, FALSE_BEN]);
  assert.deepEqual(dropped.shared.queue, []);
});

test("a conflict after the other scorer took back a hand: my hand they removed is mine again", () => {
  // Both had [DRAW, FALSE_BEN] at version 3; the other took FALSE_BEN back (version 4) and added WIN_CAT (5).
  const s0 = sharedState();
  let s = reduce(s0, { type: "sharedSent", answer: table(3, [DRAW, FALSE_BEN]), night: { ...s0.night, hands: [DRAW, FALSE_BEN] }, key: "k", seq: 1 });
  s = queued(s, DRAW);
  const c = conflictOf(s.night, s.shared, table(5, [DRAW, WIN_CAT]));
  assert.equal(c.from, 1);
  assert.deepEqual(c.theirs.map((h) => h.result), ["win"]);
  assert.deepEqual(c.mine, [FALSE_BEN, DRAW]);
});

test("a waiting hand the server refuses goes with its problem shown; the next waits on; the last waiting one can be taken back", () => {
  let s = reduce(sharedState(), { type: "sharedOffline" });
  s = queued(queued(queued(s, DRAW), FALSE_BEN), WIN_CAT);
  s = reduce(s, { type: "sharedRefused", messages: [{ pointer: "/table", key: "table.err_full", params: { max: 1 } }] });
  assert.deepEqual(s.shared.queue, [FALSE_BEN, WIN_CAT]);
  assert.deepEqual(s.night.hands, [FALSE_BEN, WIN_CAT]);
  assert.equal(s.errors.messages.length, 1);
  s = reduce(s, { type: "sharedUndone" });
  assert.deepEqual(s.shared.queue, [FALSE_BEN]);
  assert.deepEqual(s.night.hands, [FALSE_BEN]);
});

test("joined with the scorer's link: the table's players, hands, ruleset, house and table rules", () => {
  const t = table(4, [DRAW, FALSE_BEN]);
  const n = nightFromTable(t);
  assert.equal(n.ruleset, "hkma");
  assert.deepEqual(n.house, { min_faan: 3 });
  assert.deepEqual(n.night.rules, { stake: 0.5 });
  const s = reduce(initialState(), { type: "sharedJoined", id: ID, key: KEY, table: t, seq: 1 });
  assert.deepEqual(s.night.players, PLAYERS);
  assert.deepEqual(s.night.hands, [DRAW, FALSE_BEN]);
  assert.equal(s.input.view, "table");
  assert.equal(s.input.ruleset, "hkma");
  assert.equal(s.shared.version, 4);
  assert.equal(s.shared.acked, 2);
});

test("the guessed deal: the round moves on when the deal comes back to the first dealer; the match ends after north", () => {
  const keeps = { on_win: true, on_draw: false };
  const dan = { round_wind: "east", dealer: "Dan", dealer_streak: 2 };
  assert.deepEqual(guessNext(dan, DRAW, PLAYERS, keeps), { round_wind: "south", dealer: "Ann", dealer_streak: 0, complete: false });
  const danWins = { result: "win", winners: [{ player: "Dan" }] };
  assert.deepEqual(guessNext(dan, danWins, PLAYERS, keeps), { round_wind: "east", dealer: "Dan", dealer_streak: 3, complete: false });
  assert.equal(guessNext({ round_wind: "north", dealer: "Dan", dealer_streak: 0 }, DRAW, PLAYERS, keeps).complete, true);
  assert.deepEqual(guessNext(dan, FALSE_BEN, PLAYERS, keeps), { round_wind: "east", dealer: "Dan", dealer_streak: 2, complete: false });
});

test("the viewer: a newer table shown, an older one from a resumed stream ignored; a deleted night said so", () => {
  let s = initialState({ viewer: emptyViewer({ kind: "table", id: ID }) });
  assert.equal(s.viewer.connection, "connecting");
  s = run(s, { type: "viewerTable", table: table(3, [DRAW, DRAW]) });
  assert.equal(s.viewer.table.version, 3);
  assert.equal(s.viewer.connection, "live");
  s = run(s, { type: "viewerConnection", connection: "offline" }, { type: "viewerTable", table: table(2, [DRAW]) });
  assert.equal(s.viewer.table.version, 3, "an older version never replaces a newer one");
  assert.equal(s.viewer.connection, "live");
  s = run(s, { type: "viewerDeleted" });
  assert.equal(s.viewer.gone, true);
  s = run(s, { type: "viewerConnection", connection: "live" });
  assert.equal(s.viewer.connection, "closed", "gone stays gone");
});

test("hands compare whatever the order of their keys (the server writes its own)", async () => {
  const { commonPrefix } = await import("../js/share.js");
  assert.equal(commonPrefix([{ result: "false_win", offender: "Ben" }, DRAW], [{ offender: "Ben", result: "false_win" }, FALSE_BEN]), 1);
});

test("the viewer applies a hand and an undo that follow its table, and ignores one that does not", () => {
  // Table at version 3 with two draws; a hand event (version 4) adds Ben's
  // false win to both lists and replaces the summary; an undo (version 5)
  // keeps 2 hands; a change at version 7 (6 was missed) is not applied.
  let s = initialState({ viewer: emptyViewer({ kind: "table", id: ID }) });
  s = run(s, { type: "viewerTable", table: table(3, [DRAW, DRAW]) });
  const next = { round_wind: "east", dealer: "Ann", dealer_streak: 3, complete: false };
  const row = { index: 2, result: "false_win", offender: "Ben", deltas: {}, balances: {} };
  s = run(s, { type: "viewerChange", kind: "hand", change: { version: 4, updated_at: "t4", request: FALSE_BEN, hand: row, ledger: { ruleset: "hkma", next } } });
  assert.equal(s.viewer.table.version, 4);
  assert.deepEqual(s.viewer.table.request.hands, [DRAW, DRAW, FALSE_BEN]);
  assert.equal(s.viewer.table.ledger.hands.length, 3);
  assert.equal(s.viewer.table.ledger.hands[2].offender, "Ben");
  assert.deepEqual(s.viewer.table.ledger.next, next);
  assert.equal(s.viewer.table.updated_at, "t4");
  s = run(s, { type: "viewerChange", kind: "undo", change: { version: 5, updated_at: "t5", hands: 2, ledger: { ruleset: "hkma", next } } });
  assert.equal(s.viewer.table.version, 5);
  assert.equal(s.viewer.table.request.hands.length, 2);
  assert.equal(s.viewer.table.ledger.hands.length, 2);
  const before = s.viewer.table;
  s = run(s, { type: "viewerChange", kind: "hand", change: { version: 7, request: DRAW, hand: row, ledger: {} } });
  assert.equal(s.viewer.table, before, "a change that does not follow is left for the table event");
  assert.equal(applyChange(null, "hand", { version: 1 }), null);
});
