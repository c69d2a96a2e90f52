// The patterns a quick win may tick, and their running total. Which
// patterns fit comes from the engine's pattern table (GET /v1/patterns:
// `only_on`, `bonus_tiles`); the total is the server's, scored as the win
// would be (POST /v1/settle with the patterns declared), never added up
// here: what contains what, exclusive pairs and the limit are its rules.

import { call } from "./api.js";
import { handRules } from "./ledger.js";
import { nightRuleset, rulesInForce } from "./state.js";

/** How the win being entered was won, as a pattern's `only_on` reads it. */
function winBy(q) {
  return q.discarder ? "discard" : "self_draw";
}

/**
 * Whether a pattern of the chart may be ticked for this win: won the one way
 * it is won by (the panel's "on X's discard" also stands for a robbed kong,
 * X paying), and counting bonus tiles only where they are in play.
 */
export function fits(info, q, bonusInPlay) {
  if (!info) return true;
  if (info.bonus_tiles && !bonusInPlay) return false;
  const only = info.only_on;
  if (!only) return true;
  return only === winBy(q) || (only === "robbing_kong" && winBy(q) === "discard");
}

/** Whether bonus tiles are in play for the coming hand: the rules in force, else the chart. */
export function bonusInPlay(state) {
  const chart = state.server.details[nightRuleset(state)];
  const flowers = rulesInForce(state).flowers;
  return typeof flowers === "boolean" ? flowers : !!(chart && chart.bonus_tiles);
}

/** The chart's patterns this win may tick, in the chart's order (null: the tables not loaded). */
export function offered(state) {
  const q = state.quick;
  const chart = state.server.details[nightRuleset(state)];
  const table = state.server.patterns && Array.isArray(state.server.patterns.patterns) ? state.server.patterns.patterns : null;
  if (!q || !chart || !table) return null;
  const bonus = bonusInPlay(state);
  return (chart.patterns || []).filter((p) => fits(table.find((x) => x.id === p.id), q, bonus));
}

/** The key a running total belongs to: the patterns ticked, in order. */
export function tickedKey(q) {
  return q && Array.isArray(q.ticked) ? q.ticked.join(",") : "";
}

/**
 * The win with these patterns declared, as one settlement: the total faan is
 * what the ledger will count. The seats only place the payments, which the
 * total does not read.
 */
export function tickedRequest(state) {
  const q = state.quick;
  if (!q || q.step !== "patterns" || !q.ticked.length) return null;
  const context = q.discarder ? { win_by: "discard", seat_wind: "east", round_wind: "east", discarder: "south" } : { win_by: "self_draw", seat_wind: "east", round_wind: "east" };
  return {
    ruleset: nightRuleset(state),
    house_rules: handRules(rulesInForce(state)),
    winners: [{ declared: { patterns: q.ticked }, context }]
  };
}

/** Asks the server for the ticked patterns' total; the store keeps it under their key. */
export async function previewTicked(store) {
  const body = tickedRequest(store.get());
  if (!body) return;
  const key = tickedKey(store.get().quick);
  let r;
  try { r = await call("POST", "/v1/settle", body); } catch (e) { return; }
  const res = r.ok && r.json && Array.isArray(r.json.results) ? r.json.results[0] : null;
  if (res) { store.dispatch({ type: "quickTotal", key, faan: res.total_faan, limit: !!res.limit_hand }); return; }
  // Below the minimum a declared win is refused, with the total it came to.
  const below = r.json && Array.isArray(r.json.errors) ? r.json.errors.find((e) => e.code === "below_minimum") : null;
  if (below && below.params) store.dispatch({ type: "quickTotal", key, faan: below.params.faan, limit: false, below: true });
}
