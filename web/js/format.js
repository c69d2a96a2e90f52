// Words for what the page shows: tile and pattern names, the ruleset's
// summary, the money explained, and errors in the player's language (the
// page's own checks and the API's problem+json, mapped to the on-screen
// control). Pure: every function takes the translator `t` (i18n.makeT).
//
// Messages are `{key, params, pointer?}` until `describe` turns them into
// text, so the same message reads in either language.

import { SEATS, suitOf, numOf } from "./tiles.js";

// ------------------------------------------------------------- names

export function tileName(code, t) {
  const s = suitOf(code);
  if (s === "z") return t("tile." + code);
  return t("tile." + s, { digit: t("digit." + numOf(code)) });
}

/** A tile inside a sentence: "1m" in English, "一萬（1m）" in Chinese. */
export function tileInMessage(code, t) {
  return t("tile.in_message", { code, name: tileName(code, t) });
}

export function seatName(seat, t) {
  return t("seat.player", { seat: t("seat." + seat) });
}

/** A faan line's pattern name: `name_zh` in Chinese where the API gives it. */
export function lineName(line, t) {
  if (t.lang === "zh" && line.name_zh) return line.name_zh;
  return line.name;
}

export function meldKindLabel(m, t) {
  if (m.kind === "kong") return t(m.concealed ? "meld.kong_concealed" : m.added ? "meld.kong_added" : "meld.kong");
  return t("meld." + m.kind);
}

export function countWord(n, t) {
  const w = t("count." + n);
  return w === "count." + n ? String(n) : w;
}

/** 2 -> "2", 0.5 -> "0.5", 1.25 -> "1.25". */
export function formatNumber(x) {
  return String(Math.round(x * 100) / 100);
}

/** Fills a message's typed params (tile, seat, seats, role, count, ...) and translates it. */
export function describe(msg, t, ctx) {
  const p = { ...(msg.params || {}) };
  if (p.tile != null) p.tile = tileInMessage(p.tile, t);
  if (p.seat != null) p.seat = seatName(p.seat, t);
  if (Array.isArray(p.seats)) p.seats = p.seats.map((s) => seatName(s, t)).join(t("money.and"));
  if (p.role != null) p.role = t("role." + p.role);
  if (p.count != null) p.count = countWord(p.count, t);
  if (p.bonus != null) p.bonus = t(p.bonus ? "rules.bonus_on" : "rules.bonus_off");
  if (p.curve != null) p.curve = t("curve." + p.curve);
  if (p.flower != null) p.flower = t("flower." + p.flower);
  if (p.kind != null) p.kind = t("meld." + p.kind);
  // Patterns named in either language (custom.js, namedPatterns).
  for (const k of ["pattern", "via"]) if (p[k] && typeof p[k] === "object") p[k] = lineName(p[k], t);
  if (ctx && ctx.seat_wind) p.owner = t("seat.hand_of", { seat: t("seat." + ctx.seat_wind) });
  return t(msg.key, p);
}

// --------------------------------------------------------- the hand count

/** The live tile count under the hand box, as a message. */
export function countMessage(d) {
  if (d.pending) return { key: "hand.pending", params: { digits: d.pending } };
  const n = d.tiles.length, k = d.needWin - n;
  let more;
  if (k === 0) more = { key: "hand.complete" };
  else if (k === 1) more = { key: "hand.waits_ready" };
  else if (k > 1) more = { key: "hand.more_win", params: { k } };
  else more = { key: "hand.too_many", params: { k: -k } };
  return { key: "hand.count_win", params: { n }, more };
}

// ------------------------------------------------------------ rulesets

/** The ruleset's summary as messages, from its structured fields (the same in both languages). */
export function rulesetSummary(r, detail) {
  if (!r) return [];
  const out = [{ key: "rules.summary", params: { min: r.min_faan, limit: r.limit, bonus: r.bonus_tiles } }];
  if (detail) {
    const curve = detail.points && ["full_spicy", "half_spicy"].includes(detail.points.curve) ? detail.points.curve : "table";
    out.push({ key: "rules.points", params: { curve } });
    const pay = detail.payment;
    if (pay) {
      out.push({ key: "rules.payment_discard", params: { d: formatNumber(pay.discarder), others: pay.others ? { key: "rules.payment_others", params: { o: formatNumber(pay.others) } } : "" } });
      out.push({ key: "rules.payment_self_draw", params: { s: formatNumber(pay.self_draw) } });
    }
  }
  return out;
}

/** Like `describe`, with nested messages in params translated first. */
export function describeNested(msg, t, ctx) {
  const p = { ...(msg.params || {}) };
  for (const k of Object.keys(p)) {
    if (p[k] && typeof p[k] === "object" && p[k].key) p[k] = describe(p[k], t, ctx);
  }
  return describe({ ...msg, params: p }, t, ctx);
}

// --------------------------------------------------------------- money

/**
 * Who pays what, in words: "Self-draw: each of the three others pays 2 × 16 = 32."
 * Built from the answer's own payments and base points, so it holds under
 * any ruleset or house rule: each payment is shown as a multiple of the base
 * where it is one.
 */
export function explainPayments(res, ctx) {
  if (!res.meets_minimum) return [{ key: "money.nothing" }];
  const base = res.base_points, winner = res.winner || ctx.seat_wind;
  const order = [1, 2, 3].map((k) => SEATS[(SEATS.indexOf(winner) + k) % 4]);
  const payers = order.filter((s) => res.payments[s] < 0);
  const amount = (s) => -res.payments[s];
  const mult = (a) => {
    if (!(base > 0)) return null;
    const k = Math.round((a / base) * 100) / 100;
    return Math.abs(k * base - a) < 1e-6 ? formatNumber(k) : null;
  };
  const out = [];
  const line = (seatOrSeats, a, role) => {
    const k = mult(a);
    if (Array.isArray(seatOrSeats)) {
      return k != null ? { key: "money.others_each", params: { seats: seatOrSeats, k, base, amount: a } }
        : seatOrSeats.map((s) => ({ key: "money.pays_amount", params: { seat: s, amount: a } }));
    }
    if (k == null) return { key: "money.pays_amount", params: { seat: seatOrSeats, amount: a } };
    return role ? { key: "money.pays", params: { seat: seatOrSeats, role, k, base, amount: a } }
      : { key: "money.pays_plain", params: { seat: seatOrSeats, k, base, amount: a } };
  };
  const allSame = payers.length === 3 && payers.every((s) => amount(s) === amount(payers[0]));
  if (ctx.win_by === "self_draw" && allSame && mult(amount(payers[0])) != null) {
    out.push({ key: "money.self_draw_each", params: { k: mult(amount(payers[0])), base, amount: amount(payers[0]) } });
  } else {
    const roleOf = (s) => (s === ctx.liable ? "liable" : s === ctx.discarder && ctx.win_by !== "self_draw" ? "discarder" : "");
    const plain = [];
    for (const s of payers) {
      const role = roleOf(s);
      if (role) out.push(line(s, amount(s), role));
      else plain.push(s);
    }
    // The others grouped by what they pay.
    const byAmount = new Map();
    for (const s of plain) byAmount.set(amount(s), (byAmount.get(amount(s)) || []).concat([s]));
    for (const [a, seats] of byAmount) {
      const l = seats.length > 1 ? line(seats, a) : line(seats[0], a);
      if (Array.isArray(l)) out.push(...l); else out.push(l);
    }
  }
  out.push({ key: "money.receives", params: { seat: winner, amount: res.payments[winner] } });
  return out;
}

// -------------------------------------------------------------- errors

/** The page's own checks of the hand, as messages at the hand box. `submit`: also what is merely unfinished. */
export function localErrors(d, kind, submit) {
  const out = [];
  for (const e of d.errors) {
    const { code, ...params } = e;
    out.push({ pointer: "/hand/tiles", key: "err." + code, params });
  }
  for (const o of d.over) out.push({ pointer: "/hand/tiles", key: "err.over", params: { tile: o.tile, count: o.n } });
  if (d.melds.length > 4) out.push({ pointer: "/hand/tiles", key: "err.too_many_melds" });
  if (submit && !out.length) {
    if (d.pending) out.push({ pointer: "/hand/tiles", key: "err.pending", params: { digits: d.pending } });
    else if (kind === "waits" && d.tiles.length !== d.needWaits) {
      out.push({ pointer: "/hand/tiles", key: "err.count_waits", params: { got: d.tiles.length, melds: d.melds.length, expected: d.needWaits } });
    }
  }
  return out;
}

// The API's messages (src/core/hand.rs) and what they mean to a player.
const RULES = [
  // What contains what (house_rules.contains, or a document's patterns' contains).
  [/^([a-z_]+) (?:would contain|contains) itself through (?:a chain of contains \(through )?([a-z_]+)/, "err.contains_cycle", (m) => ({ pattern: m[1], via: m[2] })],
  [/^([a-z_]+) cannot contain itself/, "err.contains_self", (m) => ({ pattern: m[1] })],
  [/^(\d[mpsz]) appears (\d+) times across/, "err.over", (m) => ({ tile: m[1], count: +m[2] })],
  [/^expected (\d+) concealed tiles with (\d+) declared meld\(s\) \(a waiting hand[^)]*\), got (\d+)/, "err.count_waits", (m) => ({ expected: +m[1], melds: +m[2], got: +m[3] })],
  [/^expected (\d+) concealed tiles with (\d+) declared meld\(s\) \(a hand holds[^)]*\), got (\d+)/, "err.count_win", (m) => ({ expected: +m[1], melds: +m[2], got: +m[3] })],
  [/^required: the tile that completed the hand/, "err.win_required"],
  [/^winning tile (\d[mpsz]) is not among the concealed tiles/, "err.win_not_in_hand", (m) => ({ tile: m[1] })],
  [/^the discarder \((\w+)\) cannot be the winner/, "err.discarder_is_winner", (m) => ({ seat: m[1] })],
  [/^required for a win on a discard/, "err.discarder_required"],
  [/^required for robbing a kong/, "err.discarder_robbed"],
  [/^a self-drawn win has no discarder/, "err.discarder_on_self_draw"],
  [/^the liable seat \((\w+)\) cannot be the winner/, "err.liable_is_winner", (m) => ({ seat: m[1] })],
  [/^a replacement draw is a self-draw/, "err.replacement_self_draw"],
  [/^a kong replacement needs a kong/, "err.replacement_kong"],
  [/^a double kong win is a kong replacement draw/, "err.double_kong_replacement"],
  [/^a double kong needs two kongs among hand\.melds, found (\d+)/, "err.double_kong_two", (m) => ({ n: +m[1] })],
  [/^only East wins a heavenly hand/, "err.heavenly_east"],
  [/^a heavenly hand is the dealt hand/, "err.heavenly_self_draw"],
  [/^an? (heavenly|earthly) hand has no declared melds/, "err.no_melds"],
  [/^East cannot win an earthly hand/, "err.earthly_east"],
  [/^an earthly hand is won on East's first discard: win_by/, "err.earthly_discard"],
  [/^an earthly hand is won on East's first discard: discarder/, "err.earthly_discarder"],
  [/^a hand cannot be both heavenly and earthly/, "err.heavenly_and_earthly"],
  [/^robbing a kong of (\d[mpsz]).* it holds (\d+)/, "err.robbing_count", (m) => ({ tile: m[1], n: +m[2] })],
  [/^ruleset \S+ does not score flower wins/, "err.flower_win_ruleset"],
  [/^a flower win needs seven or eight bonus tiles, hand\.flowers has (\d+)/, "err.flower_win_count", (m) => ({ n: +m[1] })],
  [/^a flower win is drawn from the wall/, "err.flower_win_self_draw"],
  [/^bonus tiles are not in play under ruleset/, "err.bonus_off"],
  [/^bonus tile (\w+) is listed twice/, "err.flower_twice", (m) => ({ flower: m[1] })],
  [/^a hand has at most 4 melds/, "err.too_many_melds"],
  [/^\S+ is not a chow/, "err.meld_not_set", () => ({ kind: "chow" })],
  [/^\S+ is not a (pung|kong)/, "err.meld_not_set", (m) => ({ kind: m[1] })],
  [/^a (chow|pung|kong) has \d tiles/, "err.meld_not_set", (m) => ({ kind: m[1] })],
  [/^only a kong can be (concealed|added)/, "err.meld_flag"],
  [/^a kong is either concealed .* or added/, "err.meld_flag"]
];

// Field names and API words out of a message the page has no wording for.
export function plainWords(message) {
  return String(message || "")
    .replace(/\bhand\.tiles\b/g, "the hand")
    .replace(/\bhand\.melds\b/g, "the declared melds")
    .replace(/\bhand\.flowers\b/g, "the flowers")
    .replace(/\bhouse_rules\.(\w+)/g, (m, f) => "house rule " + f.replace(/_/g, " "))
    .replace(/\bPOST \/v1\/\w+/g, "")
    .replace(/\b([a-z]+)_([a-z_]+)\b/g, (m) => m.replace(/_/g, " "))
    .replace(/\s*\(\d{3}\)/g, "")
    .trim();
}

/** One API error `{pointer, message}` as a message for the player. */
export function mapApiError(e) {
  const pointer = e.pointer || "";
  const message = e.message || "";
  for (const [re, key, params] of RULES) {
    const m = re.exec(message);
    if (m) return { pointer, key, params: params ? params(m) : {} };
  }
  if (pointer.startsWith("/house_rules")) return { pointer, key: "err.house_rule", params: { detail: plainWords(message) } };
  return { pointer, key: "err.other", params: { detail: plainWords(message) } };
}

/** A problem+json answer as messages for the player (no status codes, no field names). */
export function mapProblem(status, problem) {
  const p = problem || {};
  const type = String(p.type || "");
  const errors = Array.isArray(p.errors) ? p.errors : [];
  if (/not-a-winning-hand$/.test(type)) return [{ pointer: "/hand/tiles", key: "err.not_winning" }];
  if (status === 404 || /ruleset-not-found|unknown-ruleset/.test(type)) {
    return [{ pointer: "/ruleset", key: "err.unknown_ruleset" }];
  }
  if (errors.length) return errors.map(mapApiError);
  return [{ pointer: "", key: "err.server", params: { detail: plainWords(p.title || p.detail || "") } }];
}

/** The label of the on-screen control a pointer names (its nearest known parent). */
export function controlLabel(pointer, t) {
  const meld = /^\/hand\/melds\/(\d+)/.exec(pointer || "");
  if (meld) return t("control.meld", { n: +meld[1] + 1 });
  let p = pointer || "";
  while (p) {
    const label = t("control." + p);
    if (label !== "control." + p) return label;
    p = p.slice(0, p.lastIndexOf("/"));
  }
  return t("control.request");
}
