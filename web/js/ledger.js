// The night at the table: four players and the hands played, kept in the
// browser's local storage and sent whole to POST /v1/ledger (the server
// keeps nothing). Pure apart from `loadNight`/`saveNight`, which take the
// storage as an argument.
//
// A hand goes into the list only once the server has answered the list
// with it: a hand the server refuses is never kept.

import { SEATS } from "./tiles.js";
import { handBody, contextBody } from "./state.js";

const STORE_KEY = "faan.night";
export const MAX_NAME = 24;
// The endpoint's own limit (issue 15: up to 2,000 hands).
export const MAX_HANDS = 2000;

export function emptyNight() {
  return { players: ["", "", "", ""], hands: [] };
}

/** Whether the four names can sit down: each given, distinct, short. */
export function playerProblems(players) {
  const out = [];
  const names = players.map((p) => String(p || "").trim());
  names.forEach((n, i) => {
    if (!n) out.push({ pointer: "/players/" + i, key: "table.err_name_missing", params: { n: i + 1 } });
    else if (n.length > MAX_NAME) out.push({ pointer: "/players/" + i, key: "table.err_name_long", params: { n: i + 1, max: MAX_NAME } });
    else if (names.indexOf(n) < i) out.push({ pointer: "/players/" + i, key: "table.err_name_repeated", params: { name: n } });
  });
  return out;
}

export function seated(night) {
  return playerProblems(night.players).length === 0;
}

/** Who sits where when `dealer` deals: the dealer East, then on round the table. */
export function seatsFor(players, dealer) {
  const d = Math.max(0, players.indexOf(dealer));
  const out = {};
  SEATS.forEach((s, k) => { out[s] = players[(d + k) % 4]; });
  return out;
}

/**
 * The coming hand: its round, dealer and seats. Before any hand, the east
 * round with the first player dealing; after, the server's `next` from an
 * answer to exactly these hands (null while there is none: the rotation is
 * the ruleset's, known to the server).
 */
export function currentDeal(night, answer) {
  const players = night.players.map((p) => p.trim());
  let next;
  if (!night.hands.length) next = { round_wind: "east", dealer: players[0], dealer_streak: 0, complete: false };
  else if (answer && Array.isArray(answer.hands) && answer.hands.length === night.hands.length && answer.next) next = answer.next;
  else return null;
  return { ...next, hand: night.hands.length + 1, seats: seatsFor(players, next.dealer) };
}

/**
 * The calculator's hand as one winner's ledger hand. The winner is whoever
 * sits at the calculator's seat wind in the coming hand; its discarder and
 * liable seats become players; seat and round wind are left to the ledger.
 */
export function winEntry(state, d, deal) {
  const ctx = contextBody(state, false);
  const context = {};
  for (const [k, v] of Object.entries(ctx)) {
    if (k === "seat_wind" || k === "round_wind") continue;
    context[k] = k === "discarder" || k === "liable" ? deal.seats[v] : v;
  }
  return {
    result: "win",
    winners: [{ player: deal.seats[state.context.seat_wind], hand: handBody(state, d, false), context }]
  };
}

export function drawEntry() {
  return { result: "draw" };
}

export function falseWinEntry(offender) {
  return { result: "false_win", offender };
}

/** The night with one more hand (a new object; the night given is unchanged). */
export function addHand(night, entry) {
  return { ...night, hands: night.hands.concat([entry]) };
}

/** The night without its last hand. */
export function undo(night) {
  return { ...night, hands: night.hands.slice(0, -1) };
}

/** The POST /v1/ledger body: the night under the page's ruleset and house rules. */
export function ledgerRequest(night, state) {
  const body = { ruleset: state.ruleset };
  if (Object.keys(state.house || {}).length) body.house_rules = { ...state.house };
  body.players = night.players.map((p) => p.trim());
  body.hands = night.hands;
  return body;
}

/**
 * A refusal as messages. An error in the hand being added (`index`) points
 * at the calculator's own fields (`/hands/3/winners/0/hand/tiles` is the
 * hand box); one in an earlier hand names that hand.
 */
export function ledgerMessages(messages, index) {
  const own = "/hands/" + index + "/winners/0";
  return messages.map((m) => {
    const p = m.pointer || "";
    if (p === own || p.startsWith(own + "/")) return { ...m, pointer: p.slice(own.length) || "/hand" };
    const other = /^\/hands\/(\d+)/.exec(p);
    // The earlier hand's own message goes inside (describeNested translates it).
    if (other && +other[1] !== index) return { pointer: "/table", key: "table.err_earlier", params: { n: +other[1] + 1, detail: { key: m.key, params: m.params } } };
    if (other) return { ...m, pointer: "/table" };
    return m;
  });
}

// --------------------------------------------------------------- storage

function cleanHand(h) {
  if (!h || typeof h !== "object") return null;
  if (h.result === "draw") return { result: "draw" };
  if (h.result === "false_win" && typeof h.offender === "string") return { result: "false_win", offender: h.offender };
  if (h.result === "win" && Array.isArray(h.winners) && h.winners.length) return h;
  return null;
}

/** The stored night; anything unreadable gives an empty one. */
export function loadNight(storage) {
  let raw = null;
  try { raw = storage && storage.getItem(STORE_KEY); } catch (e) { raw = null; }
  let v;
  try { v = raw ? JSON.parse(raw) : null; } catch (e) { v = null; }
  const night = emptyNight();
  if (!v || typeof v !== "object") return night;
  if (Array.isArray(v.players) && v.players.length === 4) night.players = v.players.map((p) => String(p == null ? "" : p).slice(0, MAX_NAME));
  if (Array.isArray(v.hands)) night.hands = v.hands.slice(0, MAX_HANDS).map(cleanHand).filter(Boolean);
  return night;
}

export function saveNight(storage, night) {
  try { storage.setItem(STORE_KEY, JSON.stringify(night)); } catch (e) { /* private mode: kept for this page only */ }
}
