// The night at the table: four players and the hands played, kept in the
// browser's local storage and sent whole to POST /v1/ledger (the server
// keeps nothing). Pure apart from `loadNight`/`saveNight`, which take the
// storage as an argument.
//
// A hand goes into the list only once the server has answered the list
// with it: a hand the server refuses is never kept.

import { SEATS } from "./tiles.js";
import { handBody, contextBody } from "./input.js";

const STORE_KEY = "faan.night";
export const MAX_NAME = 24;
// The endpoint's own limit (up to 2,000 hands).
export const MAX_HANDS = 2000;

// At most three winners on one discard (docs/api.md, POST /v1/settle).
export const MAX_WINNERS = 3;

/**
 * `pending`: winners of the coming hand staged before its last winner is
 * added (一炮雙響); `rules`: the table's house rules (TABLE_RULES), only
 * those the players set, each a valid value.
 */
export function emptyNight() {
  return { players: ["", "", "", ""], hands: [], pending: [], rules: {} };
}

// ------------------------------------------- the rules a night is played by

/**
 * The night as it starts (its first hand about to be added): its ruleset
 * and house rules fixed (`ruleset`, `house`, the table rules inside), so
 * that nothing chosen later on the page scores its hands again. A night
 * already started is returned as it is.
 */
export function startedNight(night, input) {
  if (night.ruleset) return night;
  const house = { ...((input && input.house) || {}), ...cleanRules(night.rules) };
  return { ...night, ruleset: input.ruleset, house };
}

/** Whether the night's rules are fixed (it has hands, and knows what it started under). */
export function isStarted(night) {
  return !!night.ruleset && night.hands.length > 0;
}

/**
 * The house rules in force for the coming hand, as the server says them:
 * the `in_force` of the last change of rules the ledger answered (`answer`,
 * an answer to the night's first hands), else the night's own. The page
 * never merges a change itself (the server merges the maps entry by entry).
 * Null while a change of rules has no answer yet.
 */
export function inForce(night, answer) {
  const rows = answer && Array.isArray(answer.hands) ? answer.hands : [];
  for (let i = rows.length - 1; i >= 0; i--) if (rows[i].result === "rules") return rows[i].in_force || {};
  if (!rows.length && night.hands.some((h) => h.result === "rules")) return null;
  return night.house || {};
}

/** The table rules the Table card shows: the night's own before it starts, those in force after (the ruleset's while unknown). */
export function nightRules(night, answer) {
  if (!isStarted(night)) return night.rules || {};
  const all = inForce(night, answer) || night.house || {};
  return cleanRules(Object.fromEntries(TABLE_RULES.filter((k) => k in all).map((k) => [k, all[k]])));
}

/** The house rules in force that are not table rules (patterns, points, the minimum...). */
export function handRules(rules) {
  return Object.fromEntries(Object.entries(rules || {}).filter(([k]) => !TABLE_RULES.includes(k)));
}

/** A change of rules from the next hand on (`{result: "rules"}`): `changes` merged as house rules merge. */
export function rulesEntry(changes) {
  return { result: "rules", house_rules: changes };
}

/**
 * A table rule's control value as the night keeps it: `{value}` (undefined:
 * the ruleset's own) or `{error}`.
 */
export function tableRuleValue(key, raw) {
  const parsed = key === "stake" ? parseStake(raw) : key === "dealer_multiplier" ? parseMultiplier(raw) : null;
  if (parsed && parsed.error) return { error: parsed.error };
  if (parsed) return { value: parsed.value };
  if (key.startsWith("dealer_keeps") || key === "co_winners_pay") return { value: raw === "" ? undefined : raw === "true" };
  return { value: raw || undefined };
}

// ------------------------------------------------- wins without tiles

/**
 * A win as the table counted it (no tiles): `winners` `[{player, faan}]`,
 * `[{player, limit: true}]` or `[{player, patterns}]`, on `discarder`'s discard ("" a self-draw).
 */
export function declaredEntry(winners, discarder) {
  const context = discarder ? { win_by: "discard", discarder } : { win_by: "self_draw" };
  return {
    result: "win",
    winners: winners.map((w) => ({ player: w.player, declared: w.limit ? { limit: true } : w.patterns ? { patterns: w.patterns } : { faan: w.faan }, context: { ...context } }))
  };
}

/**
 * The faan pad's range: from the minimum to the limit of the ruleset's
 * chart under the house rules in force (`rules`), or null while the chart
 * is not loaded.
 */
export function faanRange(chart, rules) {
  if (!chart) return null;
  const r = rules || {};
  const min = Number.isInteger(r.min_faan) ? r.min_faan : chart.min_faan;
  const limit = Number.isInteger(r.limit) ? r.limit : chart.limit;
  if (!Number.isInteger(min) || !Number.isInteger(limit) || limit < min) return null;
  return { min, limit };
}

// ------------------------------------------------------------ table rules

/** The table's house rules (rulesets/README.md, `[table]`), each a house rule of the same name. */
export const TABLE_RULES = ["stake", "dealer_keeps_on_win", "dealer_keeps_on_draw", "multiple_winners", "co_winners_pay", "dealer_multiplier", "liable_discard"];
export const MULTIPLE_WINNERS = ["all", "head_bump"];
export const LIABLE_DISCARD = ["as_usual", "pays_all", "liable_pays"];
// The server's bounds of a stake and a dealer multiplier (rulesets/README.md, `[table]`).
const MAX_STAKE = 1000000;
const MAX_MULTIPLIER = 64;

/**
 * A stake as typed: `{}` when empty, `{value}`, or `{error}` (a message for
 * the stake control). Money per point, above 0, at most six decimals.
 */
export function parseStake(text) {
  const s = String(text == null ? "" : text).trim().replace(/^\$/, "");
  if (!s) return {};
  const m = /^(\d{1,7})(?:\.(\d*))?$|^\.(\d+)$/.exec(s);
  const decimals = m ? (m[2] != null ? m[2] : m[3] || "") : "";
  const v = Number(s);
  if (!m || !Number.isFinite(v)) return { error: { pointer: "/house_rules/stake", key: "table.err_stake_number" } };
  if (decimals.length > 6) return { error: { pointer: "/house_rules/stake", key: "table.err_stake_decimals" } };
  if (!(v > 0) || v > MAX_STAKE) return { error: { pointer: "/house_rules/stake", key: "table.err_stake_range", params: { max: MAX_STAKE } } };
  return { value: v };
}

/** A dealer multiplier as typed: `{}`, `{value}` (a multiple of 1/8 from 1 to 64) or `{error}`. */
export function parseMultiplier(text) {
  const s = String(text == null ? "" : text).trim();
  if (!s) return {};
  const v = Number(s);
  if (!Number.isFinite(v) || v < 1 || v > MAX_MULTIPLIER || Math.round(v * 8) !== v * 8) {
    return { error: { pointer: "/house_rules/dealer_multiplier", key: "table.err_multiplier", params: { max: MAX_MULTIPLIER } } };
  }
  return { value: v };
}

/** Money to the cent with its sign: 12.5 -> "+$12.50", -3.05 -> "-$3.05", 0 -> "$0.00". */
export function formatMoney(x) {
  const cents = Math.round(Math.abs(x) * 100);
  const sign = cents === 0 ? "" : x > 0 ? "+" : "-";
  return sign + "$" + (cents / 100).toFixed(2);
}

/** A stake (money per point) to the cent, or finer where it has more: 0.5 -> "$0.50", 0.125 -> "$0.125". */
export function formatStake(x) {
  const s = String(x);
  const decimals = s.includes(".") ? s.split(".")[1].length : 0;
  return "$" + x.toFixed(Math.max(2, Math.min(6, decimals)));
}

/** The night's table rules cleaned: known keys with values the server takes. */
export function cleanRules(rules) {
  const out = {};
  if (!rules || typeof rules !== "object") return out;
  if (typeof rules.stake === "number" && parseStake(String(rules.stake)).value) out.stake = rules.stake;
  if (typeof rules.dealer_multiplier === "number" && parseMultiplier(String(rules.dealer_multiplier)).value) out.dealer_multiplier = rules.dealer_multiplier;
  for (const k of ["dealer_keeps_on_win", "dealer_keeps_on_draw", "co_winners_pay"]) if (typeof rules[k] === "boolean") out[k] = rules[k];
  if (MULTIPLE_WINNERS.includes(rules.multiple_winners)) out.multiple_winners = rules.multiple_winners;
  if (LIABLE_DISCARD.includes(rules.liable_discard)) out.liable_discard = rules.liable_discard;
  return out;
}

/** The night with one table rule set (`value` undefined: back to the ruleset's). */
export function withRule(night, key, value) {
  const rules = { ...night.rules };
  if (value === undefined) delete rules[key]; else rules[key] = value;
  return { ...night, rules };
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

// What a played hand is: the ledger's `number` counts these (a change of rules or a new game is not one).
const PLAYED = ["win", "draw", "false_win"];

/** Whether a hand of the night was played (a win, a draw or a false win). */
export function isPlayed(h) {
  return !!h && PLAYED.includes(h.result);
}

/** How many of `hands` were played: the ledger's `number` of the last of them. */
export function playedCount(hands) {
  return hands.filter(isPlayed).length;
}

/** The game the coming hand belongs to: 1, and one more after each new game. */
export function gameOf(hands) {
  return 1 + hands.filter((h) => h.result === "new_game").length;
}

/**
 * The seating of the coming game, its first dealer first, then on round
 * the table: the last new game's `players` and `dealer` (east first when
 * no dealer is named), else the night's four as entered.
 */
export function seatingOf(night) {
  const players = night.players.map((p) => String(p || "").trim());
  for (let i = night.hands.length - 1; i >= 0; i--) {
    const h = night.hands[i];
    if (h.result !== "new_game") continue;
    const order = Array.isArray(h.players) && h.players.length === 4 ? h.players.slice() : seatingOf({ ...night, hands: night.hands.slice(0, i) });
    const d = h.dealer && order.includes(h.dealer) ? order.indexOf(h.dealer) : 0;
    return order.slice(d).concat(order.slice(0, d));
  }
  return players;
}

/**
 * The coming hand: its number (played hands so far, plus one), game,
 * round, dealer and seats. Before any hand, the east round with the first
 * player dealing; after, the server's `next` from an answer to exactly
 * these hands (null while there is none: the rotation is the ruleset's,
 * known to the server).
 */
export function currentDeal(night, answer) {
  const order = seatingOf(night);
  let next;
  if (!night.hands.length) next = { round_wind: "east", dealer: order[0], dealer_streak: 0, complete: false };
  else if (answer && Array.isArray(answer.hands) && answer.hands.length === night.hands.length && answer.next) next = answer.next;
  else return null;
  return { ...next, hand: playedCount(night.hands) + 1, game: gameOf(night.hands), seats: seatsFor(order, next.dealer) };
}

/**
 * The next game (`{result: "new_game"}`) once the north round is over:
 * `players` the four in their new seats, east first, and `dealer` who
 * deals first; either left out keeps the seats, or the east seat dealing.
 */
export function newGameEntry(players, dealer) {
  const entry = { result: "new_game" };
  if (Array.isArray(players) && players.length === 4) entry.players = players.slice();
  if (dealer) entry.dealer = dealer;
  return entry;
}

/**
 * Whether `players` (east, south, west, north) seat the night's four, each
 * once: `[]`, or the problem at the seat that repeats or is missing.
 */
export function seatingProblems(night, players) {
  const four = night.players.map((p) => String(p || "").trim());
  const out = [];
  players.forEach((p, i) => {
    if (!four.includes(p) || players.indexOf(p) < i) out.push({ pointer: "/table/new_game/players/" + i, key: "table.err_seat_twice", params: { name: p } });
  });
  return out;
}

export function seatOf(seats, player) {
  return SEATS.find((s) => seats[s] === player) || "";
}

/** The calculator's context after choosing a winner or a discarder by name. */
export function contextFor(context, deal, winner, discarder) {
  const c = { ...context, round_wind: deal.round_wind };
  if (winner) c.seat_wind = seatOf(deal.seats, winner);
  if (!discarder) { c.win_by = "self_draw"; c.discarder = ""; } else {
    if (c.win_by === "self_draw") c.win_by = "discard";
    c.discarder = seatOf(deal.seats, discarder);
    c.replacement = "none";
  }
  return c;
}

/**
 * The calculator's hand as one winner's ledger hand. The winner is whoever
 * sits at the calculator's seat wind in the coming hand; its discarder and
 * liable seats become players; seat and round wind are left to the ledger.
 * With `night`, its pending winners come first (one discard, several winners).
 */
export function winEntry(state, d, deal, night) {
  const ctx = contextBody(state, false);
  const context = {};
  for (const [k, v] of Object.entries(ctx)) {
    if (k === "seat_wind" || k === "round_wind") continue;
    context[k] = k === "discarder" || k === "liable" ? deal.seats[v] : v;
  }
  return {
    result: "win",
    winners: (night && night.pending ? night.pending : []).concat([{ player: deal.seats[state.context.seat_wind], hand: handBody(state, d, false), context }])
  };
}

/**
 * Stages the calculator's hand as one more winner on the same discard (一炮雙響):
 * `{night}` with it pending, or `{problem}` for the control at fault. The
 * hand goes to the night with the next winner added by "Add this win".
 */
export function stageWinner(night, state, d, deal) {
  const c = state.context;
  if (c.win_by === "self_draw") return { problem: { pointer: "/context/win_by", key: "table.err_cowinner_self_draw" } };
  const pending = night.pending || [];
  if (pending.length + 1 >= MAX_WINNERS) return { problem: { pointer: "/table/winner", key: "table.err_cowinner_max", params: { max: MAX_WINNERS } } };
  const winner = winEntry(state, d, deal).winners[0];
  if (pending.some((w) => w.player === winner.player)) return { problem: { pointer: "/table/winner", key: "table.err_cowinner_twice", params: { player: winner.player } } };
  return { night: { ...night, pending: pending.concat([winner]) } };
}

/** The night without its pending winner `k`. */
export function unstage(night, k) {
  return { ...night, pending: (night.pending || []).filter((w, i) => i !== k) };
}

export function drawEntry() {
  return { result: "draw" };
}

export function falseWinEntry(offender) {
  return { result: "false_win", offender };
}

/** The night with one more hand (a new object; the night given is unchanged); nothing pending after it. */
export function addHand(night, entry) {
  return { ...night, hands: night.hands.concat([entry]), pending: [] };
}

/** The night without its last hand (no hands: not started, its rules free again). */
export function undo(night) {
  const out = { ...night, hands: night.hands.slice(0, -1) };
  if (!out.hands.length) { delete out.ruleset; delete out.house; }
  return out;
}

/** The POST /v1/ledger body: the night under the page's ruleset, house rules and the table's rules. */
export function ledgerRequest(night, state) {
  // A started night is played under the rules it started with (changes are hands of its own).
  const body = { ruleset: night.ruleset || state.ruleset };
  const house = night.ruleset ? { ...(night.house || {}) } : { ...(state.house || {}), ...cleanRules(night.rules) };
  if (Object.keys(house).length) body.house_rules = house;
  body.players = night.players.map((p) => p.trim());
  body.hands = night.hands;
  return body;
}

/**
 * A refusal as messages. An error in the hand being added (`index`) points
 * at the calculator's own fields when it is the calculator's winner
 * (`/hands/3/winners/0/hand/tiles` is the hand box; with `staged` winners
 * pending it is winner `staged`), at the pending winner's line when it is
 * one of those; one in an earlier hand names that hand.
 */
export function ledgerMessages(messages, index, staged) {
  const mine = staged || 0;
  const own = "/hands/" + index + "/winners/" + mine;
  return messages.map((m) => {
    const p = m.pointer || "";
    if (p === own || p.startsWith(own + "/")) return { ...m, pointer: p.slice(own.length) || "/hand" };
    const co = new RegExp("^/hands/" + index + "/winners/(\\d+)").exec(p);
    if (co && +co[1] < mine) return { ...m, pointer: "/table/pending/" + co[1] };
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
  if (h.result === "new_game") return newGameEntry(Array.isArray(h.players) && h.players.every((p) => typeof p === "string") ? h.players : null, typeof h.dealer === "string" ? h.dealer : "");
  if (h.result === "rules" && h.house_rules && typeof h.house_rules === "object" && !Array.isArray(h.house_rules)) return { result: "rules", house_rules: h.house_rules };
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
  if (Array.isArray(v.pending)) night.pending = v.pending.slice(0, MAX_WINNERS - 1).filter((w) => w && typeof w.player === "string" && w.hand && w.context);
  night.rules = cleanRules(v.rules);
  if (night.hands.length && typeof v.ruleset === "string" && v.ruleset) {
    night.ruleset = v.ruleset;
    night.house = v.house && typeof v.house === "object" && !Array.isArray(v.house) ? v.house : {};
  }
  return night;
}

export function saveNight(storage, night) {
  try { storage.setItem(STORE_KEY, JSON.stringify(night)); } catch (e) { /* private mode: kept for this page only */ }
}
