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
/**
 * A ruleset's name as a label that never misleads: with house rules (or
 * table rules) in force, "Wisteria Court Mahjong + house rules".
 */
/** A ruleset's name in the page's language: `name_zh` in Chinese where the server gives one; the id without the info. */
export function rulesetName(info, t, id) {
  if (!info) return id || "";
  return t.lang === "zh" && info.name_zh ? info.name_zh : info.name;
}

export function rulesetLabel(name, custom, t) {
  return custom ? t("ruleset.with_house", { name }) : name;
}

export function describe(msg, t, ctx) {
  const p = { ...(msg.params || {}) };
  if (p.tile != null) p.tile = tileInMessage(p.tile, t);
  if (p.shared != null) p.shared = tileInMessage(p.shared, t);
  // A meld's tiles: codes run together in English (7z7z7z), named in Chinese (紅中紅中紅中).
  if (Array.isArray(p.tiles)) p.tiles = p.tiles.map((x) => (t.lang === "zh" ? tileName(x, t) : x)).join("");
  if (p.round != null) p.round = t("seat." + p.round);
  // A wind as a word of its own (東, West), where the wording adds 位 or "round".
  for (const k of ["wind", "other_wind"]) if (p[k] != null) p[k] = t("seat." + p[k]);
  if (p.seat != null) p.seat = seatName(p.seat, t);
  if (Array.isArray(p.seats)) p.seats = p.seats.map((s) => seatName(s, t)).join(t("money.and"));
  if (p.role != null) p.role = t("role." + p.role);
  // How a hand was won, as the page's own words (自摸, Discard).
  for (const k of ["only_on", "win_by"]) if (typeof p[k] === "string") p[k] = t("win_by." + p[k]);
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
export function rulesetSummary(r, detail, house) {
  if (!r) return [];
  // The house rules in force change what the summary says (the minimum, the limit, flowers, the points).
  const h = house || {};
  const min = Number.isInteger(h.min_faan) ? h.min_faan : r.min_faan;
  const limit = Number.isInteger(h.limit) ? h.limit : r.limit;
  const bonus = typeof h.flowers === "boolean" ? h.flowers : r.bonus_tiles;
  const out = [{ key: "rules.summary", params: { min, limit, bonus } }];
  if (detail) {
    const own = detail.points && ["full_spicy", "half_spicy"].includes(detail.points.curve) ? detail.points.curve : "table";
    const curve = typeof h.points === "string" ? h.points : Array.isArray(h.points) ? "table" : own;
    out.push({ key: "rules.points", params: { curve } });
    const pay = detail.payment;
    if (pay) {
      out.push({ key: "rules.payment_discard", params: { d: formatNumber(pay.discarder), others: pay.others ? { key: "rules.payment_others", params: { o: formatNumber(pay.others) } } : "" } });
      out.push({ key: "rules.payment_self_draw", params: { s: formatNumber(pay.self_draw) } });
    }
    // Limits that add: how a total above the limit pays (rulesets/README.md, "Limits that add").
    if (detail.limits_add) out.push({ key: "rules.limits_add", params: { pay: { key: detail.limits_pay === "once" ? "rules.limits_pay_once" : "rules.limits_pay_per_limit" } } });
  }
  return out;
}

/**
 * How many house rules differ from the ruleset's own: each pattern,
 * switch, contains list and exclusive pair one, and a value equal to the
 * chart's (half spicy on a half-spicy ruleset) none.
 */
export function houseCount(house, r, detail) {
  let n = 0;
  for (const [k, v] of Object.entries(house || {})) {
    if (k === "patterns" || k === "conditions" || k === "contains") n += Object.keys(v || {}).length;
    else if (k === "exclusive") n += Array.isArray(v) ? v.length : 1;
    else if (r && k === "min_faan" && v === r.min_faan) continue;
    else if (r && k === "limit" && v === r.limit) continue;
    else if (r && k === "flowers" && v === r.bonus_tiles) continue;
    else if (detail && k === "points" && detail.points && v === detail.points.curve) continue;
    else n += 1;
  }
  return n;
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

// The API's rule codes (an error's `code`: engine/src/core/hand/rules.rs, HandRule) and
// the page's wording of each: its key, and its params where the server's
// names differ from the wording's (else the server's `params` as they are),
// and the control it belongs to where that is not the one the pointer names.
export const CODES = {
  tile_over_four: ["err.over"],
  winners_tile_over_four: ["err.winners_over"],
  waiting_complete: ["err.count_waits"],
  waiting_short: ["err.count_waits"],
  waiting_over: ["err.count_waits"],
  tile_count: ["err.count_win"],
  winning_tile_required: ["err.win_required"],
  winning_tile_not_in_hand: ["err.win_not_in_hand"],
  discarder_is_winner: ["err.discarder_is_winner"],
  discarder_required: ["err.discarder_required"],
  discarder_required_robbing: ["err.discarder_robbed"],
  discarder_on_self_draw: ["err.discarder_on_self_draw"],
  liable_is_winner: ["err.liable_is_winner"],
  replacement_not_self_draw: ["err.replacement_self_draw"],
  kong_replacement_without_kong: ["err.replacement_kong"],
  double_kong_replacement: ["err.double_kong_replacement"],
  double_kong_two_kongs: ["err.double_kong_two", (p) => ({ n: p.found })],
  heavenly_not_east: ["err.heavenly_east"],
  heavenly_not_self_draw: ["err.heavenly_self_draw"],
  heavenly_melds: ["err.no_melds"],
  earthly_melds: ["err.no_melds"],
  earthly_east: ["err.earthly_east"],
  earthly_not_discard: ["err.earthly_discard"],
  earthly_discarder: ["err.earthly_discarder"],
  heavenly_and_earthly: ["err.heavenly_and_earthly"],
  robbing_count: ["err.robbing_count", (p) => ({ tile: p.tile, n: p.count })],
  flower_win_ruleset: ["err.flower_win_ruleset"],
  flower_win_count: ["err.flower_win_count", (p) => ({ n: p.count })],
  flower_win_self_draw: ["err.flower_win_self_draw"],
  flower_win_not_scored: ["err.flower_win_not_scored", (p) => ({ n: p.count })],
  bonus_off: ["err.bonus_off"],
  bonus_twice: ["err.flower_twice", (p) => ({ flower: p.bonus })],
  too_many_melds: ["err.too_many_melds"],
  not_a_chow: ["err.meld_not_set", () => ({ kind: "chow" })],
  not_a_set: ["err.meld_not_set"],
  meld_size: ["err.meld_not_set"],
  meld_too_long: ["err.meld_not_set"],
  meld_flag_not_kong: ["err.meld_flag"],
  kong_concealed_and_added: ["err.meld_flag"],
  // Totals and amounts too large to answer exactly.
  money_unrepresentable: ["err.money_unrepresentable"],
  faan_overflow: ["err.faan_overflow"],
  base_points_overflow: ["err.base_points_overflow"],
  // Winners on one discard (the ledger adds player and first_player).
  co_winner_self_draw: ["table.err_cowinner_self_draw"],
  co_winner_win_by: ["err.co_win_by"],
  co_winner_discarder: ["err.co_discarder"],
  co_winner_round_wind: ["err.co_round_wind", (p) => ({ ...p, round: p.round_wind, first: p.first })],
  co_winner_seat: ["err.co_seat"],
  co_winner_winning_tile: ["err.co_winning_tile", (p) => ({ ...p, shared: p.first })],
  // The table's rules: POST /v1/settle and POST /v1/ledger (players by name).
  winner_count: ["table.err_winner_count"],
  ledger_too_many_hands: ["table.err_full"],
  match_complete: ["table.err_match_complete", (p) => ({ n: p.last + 1 })],
  balance_overflow: ["table.err_balance_overflow"],
  player_count: ["table.err_player_count"],
  player_name_empty: ["table.err_name_missing", (p) => ({ n: p.index + 1 })],
  player_name_long: ["table.err_name_long", (p) => ({ n: p.index + 1, max: p.max })],
  player_repeated: ["table.err_name_repeated"],
  unknown_player: ["table.err_unknown_player"],
  unknown_player_long: ["table.err_unknown_player_long"],
  winner_repeated: ["table.err_cowinner_twice"],
  seat_wind_mismatch: ["table.err_seat_wind", (p) => ({ player: p.player, wind: p.seat, other_wind: p.seat_wind })],
  round_wind_mismatch: ["table.err_round_wind", (p) => ({ player: p.player, round: p.round, other_wind: p.round_wind })],
  ledger_discarder_is_winner: ["table.err_discarder_is_winner"],
  below_minimum: ["table.err_below_minimum"],
  winners_not_win: ["table.err_winners_not_win"],
  offender_not_false_win: ["table.err_offender_not_false_win"],
  game_not_complete: ["table.err_game_not_complete"],
  new_game_players: ["table.err_new_game_players"],
  seats_not_new_game: ["table.err_seats_not_new_game"],
  offender_required: ["table.err_offender_required"],
  // Wins without tiles and changes of rules (the Table card's taps).
  hand_or_declared: ["err.hand_or_declared"],
  declared_one_of: ["err.declared_one_of"],
  declared_context_field: ["err.declared_context_field"],
  pattern_not_scored: ["err.pattern_not_scored"],
  pattern_repeated: ["err.pattern_repeated"],
  pattern_not_on_win: ["err.pattern_not_on_win"],
  house_rules_not_rules: ["err.house_rules_not_rules"],
  // POST /v1/analyze (Which tile to discard)
  analysis_tile_count: ["err.count_analysis"],
  seen_over_four: ["err.seen_over"],
  chances_too_far: ["err.chances_too_far"],
  // At /chances: the hand changes asked for are the way out, so it sits at their box.
  chances_too_large: ["err.chances_too_large", (p) => ({ max: Number(p.max).toLocaleString("en") }), "/chances/hand_changes"]
};

// Problems of house rules carry no code: what contains what, by its text.
const HOUSE_RULES = [
  [/^([a-z_]+) (?:would contain|contains) itself through (?:a chain of contains \(through )?([a-z_]+)/, "err.contains_cycle", (m) => ({ pattern: m[1], via: m[2] })],
  [/^([a-z_]+) cannot contain itself/, "err.contains_self", (m) => ({ pattern: m[1] })],
  [/offers minimum settings ([\d, ]+) only, not (\d+)/, "err.min_faan_settings", (m) => ({ settings: m[1].split(/,\s*/).join(" / "), min: m[2] })]
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

/** One API error `{pointer, message, code?, params?}` as a message for the player. */
export function mapApiError(e) {
  const pointer = e.pointer || "";
  const message = e.message || "";
  const coded = e.code && CODES[e.code];
  if (coded) {
    const [key, params, at] = coded;
    const p = e.params || {};
    return { pointer: at || pointer, key, params: params ? params(p) : p };
  }
  for (const [re, key, params] of HOUSE_RULES) {
    const m = re.exec(message);
    if (m) return { pointer, key, params: params(m) };
  }
  if (pointer.startsWith("/house_rules")) return { pointer, key: "err.house_rule", params: { detail: plainWords(message) } };
  return { pointer, key: "err.other", params: { detail: plainWords(message) } };
}

/** A problem+json answer as messages for the player (no status codes, no field names). */
export function mapProblem(status, problem) {
  const p = problem || {};
  const type = String(p.type || "");
  const errors = Array.isArray(p.errors) ? p.errors : [];
  if (/not-a-winning-hand$/.test(type)) {
    // A ledger's winner is named (params.player), at that winner's hand.
    const e = errors[0] || {};
    const player = e.params && e.params.player;
    if (player) return [{ pointer: e.pointer || "/hand/tiles", key: "err.not_winning_player", params: { player } }];
    return [{ pointer: "/hand/tiles", key: "err.not_winning" }];
  }
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
