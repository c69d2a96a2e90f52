// "Which tile to discard / 打邊隻": the request of POST /v1/analyze from
// the page's hand, and what its answer shows (the ranked rows, the best
// discard's acceptance and waits, the chart of the chance to win by draws).
// Pure (no DOM), so Node's test runner can import it.

import { parseEntry } from "./entry.js";
import { toMpsz } from "./tiles.js";
import { handBody, contextBody } from "./input.js";

export const MAX_DRAWS = 30;
export const DEFAULT_DRAWS = 12;

/** Whether the hand can go to POST /v1/analyze: 13 or 14 tiles (melds counted as three). */
export function readyForAnalysis(d) {
  return !d.errors.length && !d.pending && !d.over.length && d.melds.length <= 4 &&
    (d.tiles.length === d.needWin || d.tiles.length === d.needWaits);
}

/** The tiles seen as typed: `{tiles, errors}` (the hand box's notation; melds have no meaning here). */
export function parseSeen(text) {
  const p = parseEntry(text || "");
  const errors = p.errors.slice();
  if (p.pending) errors.push({ code: "digits_without_suit", pos: text.length });
  return { tiles: p.tiles.concat(...p.melds.map((m) => m.tiles)), errors };
}

/** Draws asked for: a whole number 1..30, or null (no chances) for an empty box. */
export function parseDraws(raw) {
  const s = String(raw == null ? "" : raw).trim();
  if (s === "") return { value: null };
  if (!/^\d{1,2}$/.test(s) || +s < 1 || +s > MAX_DRAWS) return { error: { pointer: "/chances/draws", key: "discard.err_draws", params: { max: MAX_DRAWS } } };
  return { value: +s };
}

/** The page's own checks of the card's inputs, as messages at their controls. */
export function discardProblems(state) {
  const out = [];
  if (parseSeen(state.seen).errors.length) out.push({ pointer: "/seen", key: "err.seen_notation" });
  const d = parseDraws(state.draws);
  if (d.error) out.push(d.error);
  return out;
}

/** The inputs as the request takes them (stepping back a shanten only with hand changes). */
export function discardOptions(state) {
  const d = parseDraws(state.draws);
  const handChanges = !!state.handChanges;
  return { seen: state.seen, draws: d.error ? null : d.value, selfDrawOnly: !!state.selfDrawOnly, handChanges, shantenDown: handChanges && !!state.shantenDown };
}

/** The body of POST /v1/analyze: the hand (no winning tile), the winds, the seen tiles and the chances asked. */
export function analyzeBody(state, d, opts) {
  const o = opts || {};
  const body = { ruleset: state.ruleset, hand: handBody(state, d, true), context: contextBody(state, true) };
  if (Object.keys(state.house || {}).length) body.house_rules = { ...state.house };
  const seen = parseSeen(o.seen).tiles;
  if (seen.length) body.seen = toMpsz(seen);
  if (o.draws != null) {
    body.chances = { draws: o.draws, discards: !o.selfDrawOnly };
    // Only when on: the default request stays as it was without them.
    if (o.handChanges) body.chances.hand_changes = true;
    if (o.handChanges && o.shantenDown) body.chances.shanten_down = true;
  }
  return body;
}

/**
 * What the figures assume, as i18n keys: nobody else wins or claims first,
 * and the model of the request's `chances` (docs/analysis.md): a draw that
 * does not help thrown at once, or kept with hand changes, with or without
 * stepping back a shanten. Empty without chances.
 */
export function assumptionKeys(chances) {
  if (!chances) return [];
  const changes = !chances.hand_changes ? "discard.changes_off" : chances.shanten_down ? "discard.changes_down" : "discard.changes_on";
  return ["discard.chance_assumes", changes];
}

/** The assumption line in the language of `T`. */
export function assumptionLine(chances, T) {
  return assumptionKeys(chances).map((k) => T(k)).join(" ");
}

/**
 * The best win on one wait against the minimum: its faan, and `meets`:
 * "discard" (a win on a discard meets it), "self_draw" (only self-drawn),
 * "none" (below the minimum however it is won).
 */
export function bestWin(w) {
  const ways = [w.discard, w.self_draw].filter(Boolean);
  const faan = ways.length ? Math.max(...ways.map((s) => s.total_faan)) : null;
  const meets = w.discard && w.discard.meets_minimum ? "discard" : w.self_draw && w.self_draw.meets_minimum ? "self_draw" : "none";
  const points = Math.max(0, ...ways.filter((s) => s.meets_minimum).map((s) => s.base_points));
  return { tile: w.tile, unseen: w.unseen, faan, meets, points };
}

function row(x) {
  const c = x.chances || null;
  return {
    tile: x.tile || null,
    shanten: x.shanten,
    acceptance: (x.acceptance || []).map((a) => ({ tile: a.tile, unseen: a.unseen })),
    count: x.acceptance_count,
    waits: (x.waits || []).map(bestWin),
    win: c && c.win.length ? c.win[c.win.length - 1] : null,
    ready: c && c.ready.length ? c.ready[c.ready.length - 1] : null,
    expected: c ? c.expected_points : null,
    curve: c ? c.win.slice() : null
  };
}

/**
 * What the view shows of an answer: `rows` best first (one per discard for
 * 14 tiles, the hand itself for 13, its `tile` null), `best` (the first),
 * whether chances were asked, and `complete` (14 tiles that already win).
 */
export function summarize(res) {
  const discarding = Array.isArray(res.discards);
  const rows = discarding ? res.discards.map(row) : [row({ ...res, shanten: res.shanten.best })];
  return {
    discarding,
    shanten: res.shanten,
    rows,
    best: rows[0] || null,
    chances: rows.some((r) => r.curve),
    complete: res.complete || null
  };
}

/** A probability as a percentage: 0.6524 -> "65.2%". */
export function percent(p) {
  return (Math.round(p * 1000) / 10).toFixed(1) + "%";
}

/**
 * The chart of the chance to win by draws: an SVG polyline's points in a
 * `width` × `height` box (y grows downward; 0% at the bottom, `top` at the
 * top, the next 10% above the highest chance), with the ticks of each axis.
 */
export function chartGeometry(win, width, height, pad) {
  const p = pad || { left: 34, right: 8, top: 8, bottom: 22 };
  const n = win.length;
  const hi = Math.max(...win, 0);
  const top = Math.min(1, Math.max(0.1, Math.ceil(hi * 10 + 1e-9) / 10));
  const w = width - p.left - p.right, h = height - p.top - p.bottom;
  const x = (t) => p.left + (n <= 1 ? w : ((t - 1) / (n - 1)) * w);
  const y = (v) => p.top + h - (v / top) * h;
  const r = (v) => Math.round(v * 10) / 10;
  const points = win.map((v, i) => r(x(i + 1)) + "," + r(y(v))).join(" ");
  const step = n > 15 ? 5 : n > 6 ? 3 : 1;
  const xTicks = [];
  for (let t = 1; t <= n; t += step) xTicks.push({ t, x: r(x(t)) });
  if (xTicks[xTicks.length - 1].t !== n) xTicks.push({ t: n, x: r(x(n)) });
  const yTicks = [0, top / 2, top].map((v) => ({ v, label: Math.round(v * 100) + "%", y: r(y(v)) }));
  return { points, xTicks, yTicks, top, box: { left: p.left, right: width - p.right, top: p.top, bottom: height - p.bottom } };
}
