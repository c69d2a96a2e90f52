// The calculator's inputs: what the player entered (the store's `input`,
// state.js), what follows from it, how it goes into the URL and into API
// requests. Pure (no DOM).
//
// The hand box's text is the one source of the tiles and melds: tapping the
// palette rewrites the text, typing replaces it. The winning tile is the last
// concealed tile written, unless the player picked another one.

import { parseEntry, entryText, buildMeld } from "./entry.js";
import { SEATS, FLOWERS, countTiles, compareTiles, toMpsz, isTile } from "./tiles.js";

export const WIN_BY = ["self_draw", "discard", "robbing_kong"];
export const REPLACEMENT = ["none", "kong", "flower"];
export const EXTRAS = ["double_kong", "last_tile", "heavenly", "earthly", "flower_win"];
export const POINTS = ["full_spicy", "half_spicy"];
export const DISCARD_PAYMENT = ["discarder_pays_all", "discarder_pays_half", "discarder_pays_double"];
// How a total above the limit pays under `limits_add` (rulesets/README.md, "Limits that add").
export const LIMITS_PAY = ["per_limit", "once"];
export const VIEWS = ["score", "compare", "waits", "rules", "table", "discard"];
export const DEFAULT_RULESET = "wisteria-court";

export function emptyContext() {
  return {
    seat_wind: "south", round_wind: "east", win_by: "self_draw", discarder: "",
    replacement: "none", double_kong: false, last_tile: false, heavenly: false,
    earthly: false, flower_win: false, liable: ""
  };
}

export function emptyInput() {
  // seen, draws, selfDrawOnly, handChanges, shantenDown: Which tile to
  // discard's inputs (discard.js); compareCustom: Compare sends the page's
  // rules as a ruleset of their own.
  return { text: "", winPick: "", flowers: [], context: emptyContext(), ruleset: DEFAULT_RULESET, house: {}, view: "score", seen: "", draws: "12", selfDrawOnly: false, handChanges: false, shantenDown: false, compareCustom: false };
}

/**
 * What follows from the state: the parsed tiles and melds, counts, the
 * winning tile and how it was chosen, how many tiles are still needed.
 */
export function derive(state) {
  const p = parseEntry(state.text);
  const counts = countTiles(p.tiles, p.melds);
  const over = Object.keys(counts).filter((t) => counts[t] > 4).sort(compareTiles).map((t) => ({ tile: t, n: counts[t] }));
  const last = p.tiles.length ? p.tiles[p.tiles.length - 1] : "";
  const picked = state.winPick && p.tiles.includes(state.winPick) ? state.winPick : "";
  // A kong's fourth tile is its own: each meld takes three of the fourteen.
  const needWin = 14 - 3 * p.melds.length;
  const needWaits = needWin - 1;
  return {
    ...p,
    counts,
    over,
    winning: picked || last,
    winningFrom: picked ? "picked" : last ? "last" : "",
    needWin,
    needWaits,
    missing: needWin - p.tiles.length
  };
}

/** Whether the hand can go to POST /v1/score without a mistake the page can see. */
export function readyToScore(state, d) {
  if (d.errors.length || d.pending || d.over.length || d.melds.length > 4) return false;
  if (d.tiles.length === d.needWin) return true;
  return state.context.flower_win && d.tiles.length === d.needWin - 1;
}

/** Whether the hand is one tile short, for POST /v1/waits. */
export function readyForWaits(d) {
  return !d.errors.length && !d.pending && !d.over.length && d.tiles.length === d.needWaits;
}

// --------------------------------------------------------------- editing

/** Adds a tile to the concealed tiles; refuses a fifth copy. */
export function addTile(state, t) {
  const d = derive(state);
  if ((d.counts[t] || 0) >= 4) return { state, refused: { code: "fifth_copy", tile: t } };
  let text;
  if (d.errors.length) text = state.text.replace(/\s+$/, "") + " " + t;
  else text = entryText(d.tiles.concat([t]), d.melds); // pending digits are dropped
  return { state: { ...state, text, winPick: "" } };
}

/** Declares a meld from a palette tap (a chow from its lowest tile); refuses a fifth copy. */
export function addMeld(state, kind, t, flags) {
  const d = derive(state);
  const r = buildMeld(kind, [t], flags || {});
  if (r.error) return { state, refused: { code: r.error, tile: t, kind } };
  const extra = countTiles(r.meld.tiles, []);
  for (const u of Object.keys(extra)) {
    if ((d.counts[u] || 0) + extra[u] > 4) return { state, refused: { code: "fifth_copy", tile: u } };
  }
  if (d.melds.length >= 4) return { state, refused: { code: "too_many_melds" } };
  if (d.errors.length) return { state, refused: { code: "fix_box_first" } };
  return { state: { ...state, text: entryText(d.tiles, d.melds.concat([r.meld])) }, meld: r.meld };
}

/** Removes the concealed tile at `index` (written order). */
export function removeTile(state, index) {
  const d = derive(state);
  if (d.errors.length || index < 0 || index >= d.tiles.length) return state;
  const tiles = d.tiles.slice();
  tiles.splice(index, 1);
  return { ...state, text: entryText(tiles, d.melds), winPick: tiles.includes(state.winPick) ? state.winPick : "" };
}

export function removeMeld(state, index) {
  const d = derive(state);
  if (d.errors.length) return state;
  const melds = d.melds.slice();
  melds.splice(index, 1);
  return { ...state, text: entryText(d.tiles, melds) };
}

// -------------------------------------------------------------- the URL

// Query keys. The hand box's text goes as written (melds included).
const CTX_KEYS = { seat: "seat_wind", round: "round_wind", by: "win_by", from: "discarder", replacement: "replacement", liable: "liable" };

/** The state as a query string (defaults left out). */
export function toQuery(state) {
  const q = new URLSearchParams();
  const dflt = emptyContext();
  if (state.text.trim()) q.set("hand", state.text.trim());
  if (state.winPick) q.set("win", state.winPick);
  if (state.flowers.length) q.set("flowers", state.flowers.join(","));
  for (const [k, f] of Object.entries(CTX_KEYS)) {
    if (state.context[f] !== dflt[f] && state.context[f]) q.set(k, state.context[f]);
  }
  const extras = EXTRAS.filter((e) => state.context[e]);
  if (extras.length) q.set("extras", extras.join(","));
  if (state.ruleset !== DEFAULT_RULESET) q.set("rules", state.ruleset);
  const h = state.house || {};
  if (h.min_faan != null) q.set("min_faan", String(h.min_faan));
  if (h.limit != null) q.set("limit", String(h.limit));
  if (h.flowers != null) q.set("bonus_tiles", String(h.flowers));
  if (h.points != null) q.set("points", Array.isArray(h.points) ? h.points.join(",") : String(h.points));
  if (h.discard_payment != null) q.set("discard_payment", h.discard_payment);
  if (h.limits_add != null) q.set("limits_add", String(h.limits_add));
  if (h.limits_pay != null) q.set("limits_pay", h.limits_pay);
  if (h.patterns && Object.keys(h.patterns).length) q.set("patterns", Object.entries(h.patterns).map(([id, v]) => id + ":" + (v === null ? "off" : v)).join(","));
  if (h.conditions && Object.keys(h.conditions).length) q.set("switches", Object.entries(h.conditions).map(([k, v]) => k + ":" + (v ? "on" : "off")).join(","));
  // What contains what (`id:a.b`, `id:` for nothing) and exclusive pairs (`a.b`).
  if (h.contains && Object.keys(h.contains).length) q.set("contains", Object.entries(h.contains).map(([id, l]) => id + ":" + l.join(".")).join(","));
  if (h.exclusive && h.exclusive.length) q.set("exclusive", h.exclusive.map((p) => p.join(".")).join(","));
  // Compare with the page's rules as their own ruleset: it changes the answer, so it is shared.
  if (state.compareCustom) q.set("compare_custom", "1");
  if (state.seen && state.seen.trim()) q.set("seen", state.seen.trim());
  if (state.draws != null && state.draws !== "12") q.set("draws", state.draws === "" ? "none" : state.draws);
  if (state.selfDrawOnly) q.set("self_draw_only", "true");
  // Stepping back a shanten is a kind of hand change: never written alone.
  if (state.handChanges) q.set("hand_changes", "true");
  if (state.handChanges && state.shantenDown) q.set("shanten_down", "true");
  if (state.view !== "score") q.set("view", state.view);
  return q.toString();
}

function nonNegInt(v) {
  return /^\d{1,3}$/.test(v) ? Number(v) : null;
}

/** A state from a query string; unknown or malformed values are left at their defaults. */
export function fromQuery(search) {
  const q = new URLSearchParams(search);
  const s = emptyInput();
  const one = (k, allowed) => { const v = q.get(k); return v != null && allowed.includes(v) ? v : null; };
  if (q.get("hand")) s.text = q.get("hand").slice(0, 200);
  const win = q.get("win");
  if (isTile(win)) s.winPick = win;
  if (q.get("flowers")) s.flowers = FLOWERS.filter((f) => q.get("flowers").split(",").includes(f));
  s.context.seat_wind = one("seat", SEATS) || s.context.seat_wind;
  s.context.round_wind = one("round", SEATS) || s.context.round_wind;
  s.context.win_by = one("by", WIN_BY) || s.context.win_by;
  s.context.discarder = one("from", SEATS) || "";
  s.context.replacement = one("replacement", REPLACEMENT) || "none";
  s.context.liable = one("liable", SEATS) || "";
  const extras = (q.get("extras") || "").split(",");
  for (const e of EXTRAS) s.context[e] = extras.includes(e);
  const rules = q.get("rules");
  if (rules && /^[a-z0-9-]{1,64}$/.test(rules)) s.ruleset = rules;
  const h = {};
  const min = nonNegInt(q.get("min_faan"));
  if (min != null) h.min_faan = min;
  const lim = nonNegInt(q.get("limit"));
  if (lim != null) h.limit = lim;
  const bonus = q.get("bonus_tiles");
  if (bonus === "true" || bonus === "false") h.flowers = bonus === "true";
  const pts = q.get("points");
  if (pts && POINTS.includes(pts)) h.points = pts;
  else if (pts && /^\d+(,\d+)*$/.test(pts)) h.points = pts.split(",").map(Number);
  const dp = one("discard_payment", DISCARD_PAYMENT);
  if (dp) h.discard_payment = dp;
  const la = q.get("limits_add");
  if (la === "true" || la === "false") h.limits_add = la === "true";
  const lp = one("limits_pay", LIMITS_PAY);
  if (lp) h.limits_pay = lp;
  // Pattern overrides and switches: ids as the server names them (it refuses unknown ones).
  const pairs = (k, re) => (q.get(k) || "").split(",").slice(0, 64).map((x) => re.exec(x)).filter(Boolean);
  const pats = pairs("patterns", /^([a-z_]{1,40}):(off|limit|\d{1,2})$/);
  if (pats.length) h.patterns = Object.fromEntries(pats.map((m) => [m[1], m[2] === "off" ? null : m[2] === "limit" ? "limit" : Number(m[2])]));
  const sw = pairs("switches", /^([a-z_]{1,40}):(on|off)$/);
  if (sw.length) h.conditions = Object.fromEntries(sw.map((m) => [m[1], m[2] === "on"]));
  const co = pairs("contains", /^([a-z_]{1,40}):((?:[a-z_]{1,40})(?:\.[a-z_]{1,40}){0,47})?$/);
  if (co.length) h.contains = Object.fromEntries(co.map((m) => [m[1], m[2] ? m[2].split(".") : []]));
  const ex = pairs("exclusive", /^([a-z_]{1,40})\.([a-z_]{1,40})$/);
  if (ex.length) h.exclusive = ex.map((m) => [m[1], m[2]]);
  s.house = h;
  if (q.get("seen")) s.seen = q.get("seen").slice(0, 200);
  const draws = q.get("draws");
  if (draws === "none") s.draws = "";
  else if (draws && /^\d{1,2}$/.test(draws)) s.draws = draws;
  s.selfDrawOnly = q.get("self_draw_only") === "true";
  s.handChanges = q.get("hand_changes") === "true";
  s.shantenDown = s.handChanges && q.get("shanten_down") === "true";
  s.view = one("view", VIEWS) || "score";
  s.compareCustom = q.get("compare_custom") === "1";
  return s;
}

// ------------------------------------------------------------- requests

export function handBody(state, d, waiting) {
  const hand = { tiles: toMpsz(d.tiles) };
  if (d.melds.length) {
    hand.melds = d.melds.map((m) => {
      const o = { kind: m.kind, tiles: toMpsz(m.tiles) };
      if (m.concealed) o.concealed = true;
      if (m.added) o.added = true;
      return o;
    });
  }
  if (!waiting && d.winning) hand.winning_tile = d.winning;
  const fl = FLOWERS.filter((f) => state.flowers.includes(f));
  if (fl.length) hand.flowers = fl;
  return hand;
}

export function contextBody(state, waiting) {
  const c = state.context;
  const out = { seat_wind: c.seat_wind, round_wind: c.round_wind };
  // POST /v1/waits takes only what holds whatever the winning tile is.
  if (waiting) {
    if (c.last_tile) out.last_tile = true;
    return out;
  }
  out.win_by = c.win_by;
  if (c.discarder && c.win_by !== "self_draw") out.discarder = c.discarder;
  if (c.replacement !== "none") out.replacement = c.replacement;
  for (const e of EXTRAS) if (c[e]) out[e] = true;
  if (c.liable) out.liable = c.liable;
  return out;
}

/** The request body of a view: score, compare or waits. */
export function requestBody(kind, state, d) {
  const waiting = kind === "waits";
  const body = {};
  if (kind === "compare") body.rulesets = "all";
  else body.ruleset = state.ruleset;
  body.hand = handBody(state, d, waiting);
  body.context = contextBody(state, waiting);
  if (Object.keys(state.house || {}).length) body.house_rules = { ...state.house };
  return body;
}
